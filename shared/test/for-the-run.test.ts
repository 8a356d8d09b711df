import { describe, expect, test } from "bun:test";
import { disposeRunResources, forTheRun } from "@linkgeo/testing";

/** A resource that counts its starts and disposals, and can be broken. */
function counted() {
  const log: string[] = [];
  let n = 0;
  const start = async () => {
    const id = ++n;
    log.push(`start ${id}`);
    const resource = { id, broken: false, [Symbol.asyncDispose]: async () => void log.push(`dispose ${id}`) };
    return resource;
  };
  return { log, start };
}

describe("forTheRun", () => {
  test("starts once for every file that asks; the run's end disposes it once", async () => {
    const { log, start } = counted();
    const shared = forTheRun(start);
    const [a, b] = await Promise.all([shared(), shared()]);
    expect((await shared()).id).toBe(1);
    expect(a).toBe(b);
    await disposeRunResources();
    await disposeRunResources();
    expect(log).toEqual(["start 1", "dispose 1"]);
  });

  test("starts another when the first can no longer serve; both are disposed at the end", async () => {
    const { log, start } = counted();
    const shared = forTheRun(start, (resource) => !resource.broken);
    (await shared()).broken = true;
    expect((await shared()).id).toBe(2);
    expect((await shared()).id).toBe(2);
    await disposeRunResources();
    expect(log.sort()).toEqual(["dispose 1", "dispose 2", "start 1", "start 2"]);
  });

  test("a start that failed is tried again by the next file, and the failure is not disposed", async () => {
    let attempts = 0;
    const disposed: number[] = [];
    const shared = forTheRun(async () => {
      attempts++;
      if (attempts === 1) throw new Error("no browser yet");
      return { attempt: attempts, [Symbol.asyncDispose]: async () => void disposed.push(attempts) };
    });
    await expect(shared()).rejects.toThrow("no browser yet");
    expect((await shared()).attempt).toBe(2);
    await disposeRunResources();
    expect(disposed).toEqual([2]);
  });

  test("once disposed, it is never handed out again: the next ask starts another (a worker that keeps its modules across files)", async () => {
    const { log, start } = counted();
    const shared = forTheRun(start);
    expect((await shared()).id).toBe(1);
    await disposeRunResources();
    expect((await shared()).id).toBe(2);
    expect((await shared()).id).toBe(2);
    await disposeRunResources();
    expect(log).toEqual(["start 1", "dispose 1", "start 2", "dispose 2"]);
  });
});
