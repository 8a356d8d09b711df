import { describe, expect, test } from "bun:test";
import { allocatorEnv, allocatorPurgeDelayMs } from "../src/core/allocator-settings.ts";
import { parallelCommandLine, runInstead } from "../testing/src/parallel-files.ts";

describe("a plain bun test runs its files side by side", () => {
  const bun = "/usr/bin/bun";

  test("bun test, with whatever it was given, becomes bun test --parallel --no-isolate with the same", () => {
    expect(parallelCommandLine([bun, "test"], {})).toEqual([process.execPath, "test", "--parallel", "--no-isolate"]);
    expect(parallelCommandLine([bun, "test", "--reporter=junit", "--reporter-outfile=x.xml", "shortener", "-t", "counts"], {})).toEqual([
      process.execPath,
      "test",
      "--parallel",
      "--no-isolate",
      "--reporter=junit",
      "--reporter-outfile=x.xml",
      "shortener",
      "-t",
      "counts",
    ]);
  });

  test.each([
    ["a worker of a parallel run", [bun, "test"], { BUN_TEST_WORKER_ID: "1" }],
    ["LINKGEO_TEST_SERIAL=1", [bun, "test"], { LINKGEO_TEST_SERIAL: "1" }],
    ["a run that says --parallel=4", [bun, "test", "--parallel=4"], {}],
    ["a run that says how to isolate", [bun, "test", "--isolate"], {}],
    ["a shard", [bun, "test", "--shard=1/3"], {}],
    ["watch mode", [bun, "test", "--watch"], {}],
    ["a command line that cannot be read", [], {}],
  ])("%s is left as it is", (_, args, env) => {
    expect(parallelCommandLine(args, env)).toBeUndefined();
  });
});

describe("the run that takes a plain bun test's place", () => {
  test("starts with the run's allocator settings: a purge delay of a second, or the caller's own", async () => {
    expect(allocatorEnv({})).toEqual({ MIMALLOC_PURGE_DELAY: String(allocatorPurgeDelayMs) });
    expect(allocatorEnv({ MIMALLOC_PURGE_DELAY: "10" })).toEqual({ MIMALLOC_PURGE_DELAY: "10" });
    // This process (a worker of a parallel run) may have the variable already: each case sets it or takes it out.
    const inherited = process.env.MIMALLOC_PURGE_DELAY;
    const passed = (value: string) =>
      runInstead([process.execPath, "-e", `process.exit(process.env.MIMALLOC_PURGE_DELAY === ${JSON.stringify(value)} ? 0 : 3)`]);
    try {
      delete process.env.MIMALLOC_PURGE_DELAY;
      expect(await passed(String(allocatorPurgeDelayMs))).toBe(0);
      process.env.MIMALLOC_PURGE_DELAY = "10";
      expect(await passed("10")).toBe(0);
    } finally {
      if (inherited === undefined) delete process.env.MIMALLOC_PURGE_DELAY;
      else process.env.MIMALLOC_PURGE_DELAY = inherited;
    }
  });
});
