import { describe, expect, test } from "bun:test";
import { FreshSingleFlight } from "../src/visits/fresh-single-flight.ts";

/** A run whose end the test decides, with the clock at its start. */
function controlledRuns() {
  let clock = 0;
  const runs: Array<{ startedAt: number; finish: () => void; fail: (error: Error) => void }> = [];
  const fn = () =>
    new Promise<void>((resolve, reject) => {
      runs.push({ startedAt: clock, finish: resolve, fail: reject });
    });
  return { fn, runs, now: () => clock, tick: () => clock++ };
}

describe("FreshSingleFlight", () => {
  test("callers that come while a run they could share is in flight join it: one run for all", async () => {
    const { fn, runs, now, tick } = controlledRuns();
    const flight = new FreshSingleFlight(fn, now);
    const first = flight.run();
    const second = flight.run();
    const third = flight.run();
    expect(runs.length).toBe(1);
    tick();
    runs[0]!.finish();
    await Promise.all([first, second, third]);
    expect(runs.length).toBe(1);
  });

  test("a caller that comes after a run began waits for it and gets a run of its own, shared with those who came with it", async () => {
    const { fn, runs, now, tick } = controlledRuns();
    const flight = new FreshSingleFlight(fn, now);
    const early = flight.run();
    tick();
    let lateDone = false;
    const late = flight.run().then(() => (lateDone = true));
    const alsoLate = flight.run();
    // Only one run in flight at a time: the late callers wait for the early one.
    expect(runs.length).toBe(1);
    runs[0]!.finish();
    await early;
    await Bun.sleep(0);
    expect(runs.length).toBe(2);
    expect(runs[1]!.startedAt).toBeGreaterThanOrEqual(1);
    expect(lateDone).toBe(false);
    runs[1]!.finish();
    await Promise.all([late, alsoLate]);
    expect(runs.length).toBe(2);
  });

  test("a failed run fails its callers, and the next call starts afresh", async () => {
    const { fn, runs, now, tick } = controlledRuns();
    const flight = new FreshSingleFlight(fn, now);
    const failing = flight.run();
    runs[0]!.fail(new Error("database gone"));
    await expect(failing).rejects.toThrow("database gone");
    tick();
    const next = flight.run();
    expect(runs.length).toBe(2);
    runs[1]!.finish();
    await next;
  });
});
