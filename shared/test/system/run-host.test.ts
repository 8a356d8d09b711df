import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { hostedForTheRun, runHostLog, waitFor } from "@linkgeo/testing";

const things = `${import.meta.dir}/../fixtures/hosted-things.ts`;

describe("the run's host", () => {
  test("asked twice at once, starts a thing once, in a process of its own, and hands every later ask the same one", async () => {
    const counted = hostedForTheRun<{ start: number; hostPid: number }>({ module: things, exportName: "countedThing" });
    const [first, second] = await Promise.all([counted(), counted()]);
    expect(first).toEqual(second);
    expect(first.hostPid).not.toBe(process.pid);
    expect(await counted()).toEqual(first);
  });

  test("a thing that cannot start is said in the ask's error, and the next ask tries again", async () => {
    const broken = hostedForTheRun({ module: things, exportName: "thingThatCannotStart" });
    await expect(broken()).rejects.toThrow("this thing cannot start");
    await expect(broken()).rejects.toThrow("this thing cannot start");
  });

  test("an error a kept thing throws by itself is logged, and the host serves on", async () => {
    const { thrown } = await hostedForTheRun<{ thrown: string }>({ module: things, exportName: "thingThatThrowsLater" })();
    await waitFor("the host to log the error", () => readFileSync(runHostLog, "utf8").includes(thrown));
    const counted = await hostedForTheRun<{ start: number; hostPid: number }>({ module: things, exportName: "countedThing" })();
    expect(thrown).toContain(String(counted.hostPid));
  });
});
