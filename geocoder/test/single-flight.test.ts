import { describe, expect, test } from "bun:test";
import { SingleFlight } from "../src/cache/single-flight.ts";

/** A promise the test settles when it chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("single flight", () => {
  test("100 concurrent identical runs call fn once and all get its result", async () => {
    const flight = new SingleFlight<string[]>();
    const gate = deferred<string[]>();
    let calls = 0;
    const fn = () => {
      calls++;
      return gate.promise;
    };
    const runs = Array.from({ length: 100 }, () => flight.run("reverse:v1:default:1.000000:2.000000:*", fn));
    expect(calls).toBe(1);
    gate.resolve(["Wien"]);
    expect(await Promise.all(runs)).toEqual(Array(100).fill(["Wien"]));
    expect(calls).toBe(1);
    expect(flight.size).toBe(0);
  });

  test("a failure rejects every waiter, and the next run calls fn again", async () => {
    const flight = new SingleFlight<string>();
    const gate = deferred<string>();
    let calls = 0;
    const runs = Array.from({ length: 10 }, () =>
      flight.run("k", () => {
        calls++;
        return gate.promise;
      }),
    );
    gate.reject(new Error("every provider failed"));
    const outcomes = await Promise.allSettled(runs);
    expect(outcomes).toEqual(Array(10).fill({ status: "rejected", reason: new Error("every provider failed") }));
    expect(flight.size).toBe(0);

    expect(await flight.run("k", async () => `call ${++calls}`)).toBe("call 2");
  });

  test("a waiter that retries as soon as it sees the failure starts a fresh run", async () => {
    const flight = new SingleFlight<string>();
    let calls = 0;
    const attempt = () =>
      flight.run("k", async () => {
        calls++;
        if (calls === 1) throw new Error("first fails");
        return "second answers";
      });
    const retried = await attempt().catch(() => attempt());
    expect(retried).toBe("second answers");
    expect(calls).toBe(2);
  });

  test("a function that throws before returning a promise rejects like one that rejects", async () => {
    const flight = new SingleFlight<number>();
    const boom = () => {
      throw new TypeError("bad input");
    };
    await expect(flight.run("k", boom)).rejects.toThrow(TypeError);
    expect(flight.size).toBe(0);
    expect(await flight.run("k", async () => 7)).toBe(7);
  });

  test("different keys run separately", async () => {
    const flight = new SingleFlight<string>();
    const gates = { a: deferred<string>(), b: deferred<string>() };
    const calls: string[] = [];
    const run = (key: "a" | "b") =>
      flight.run(key, () => {
        calls.push(key);
        return gates[key].promise;
      });
    const runs = [run("a"), run("b"), run("a"), run("b")];
    expect(calls).toEqual(["a", "b"]);
    expect(flight.size).toBe(2);
    gates.b.resolve("B");
    expect(await runs[1]).toBe("B");
    expect(flight.size).toBe(1);
    gates.a.resolve("A");
    expect(await Promise.all(runs)).toEqual(["A", "B", "A", "B"]);
    expect(flight.size).toBe(0);
  });

  test("a run after one settled calls fn again: results are not remembered", async () => {
    const flight = new SingleFlight<number>();
    let calls = 0;
    const fn = async () => ++calls;
    expect(await flight.run("k", fn)).toBe(1);
    expect(await flight.run("k", fn)).toBe(2);
  });
});
