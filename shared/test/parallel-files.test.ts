import { describe, expect, test } from "bun:test";
import { parallelCommandLine } from "../testing/src/parallel-files.ts";

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
