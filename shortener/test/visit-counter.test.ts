import { describe, expect, test } from "bun:test";
import type { LinkStore } from "../src/links/link-store.ts";
import { VisitCounter } from "../src/visits/visit-counter.ts";

/** A store that remembers each batch it was given and answers for codes it knows. */
function recordingStore(known: Record<string, string>, options: { failFirst?: boolean } = {}) {
  const batches: Array<Record<string, number>> = [];
  let fail = options.failFirst ?? false;
  const store: Pick<LinkStore, "recordVisits"> = {
    async recordVisits(counts) {
      await Bun.sleep(5); // a database round trip, during which more visits arrive
      if (fail) {
        fail = false;
        throw Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" });
      }
      batches.push(Object.fromEntries(counts));
      return new Map([...counts.keys()].filter((c) => c in known).map((c) => [c, known[c]!]));
    },
  };
  return { store, batches };
}

const clock = () => new Date("2026-11-22T00:00:00Z");

describe("VisitCounter", () => {
  test("merges visits that arrive together into one write, per code", async () => {
    const { store, batches } = recordingStore({ a: "https://a.example/", b: "https://b.example/" });
    const counter = new VisitCounter(store, clock);
    const results = await Promise.all([counter.visit("a"), counter.visit("b"), counter.visit("a"), counter.visit("zzz")]);
    expect(results).toEqual(["https://a.example/", "https://b.example/", "https://a.example/", null]);
    expect(batches).toEqual([{ a: 2, b: 1, zzz: 1 }]);
  });

  test("visits that arrive during a write go into the next one, and none is lost", async () => {
    const { store, batches } = recordingStore({ a: "https://a.example/" });
    const counter = new VisitCounter(store, clock);
    const first = counter.visit("a");
    await Bun.sleep(1); // the first write is now in flight
    const more = Array.from({ length: 50 }, () => counter.visit("a"));
    await Promise.all([first, ...more]);
    expect(batches).toEqual([{ a: 1 }, { a: 50 }]);
  });

  test("a failed write rejects its visits and the next write still happens", async () => {
    const { store, batches } = recordingStore({ a: "https://a.example/" }, { failFirst: true });
    const counter = new VisitCounter(store, clock);
    expect(counter.visit("a")).rejects.toThrow("connection refused");
    await counter.drain();
    expect(await counter.visit("a")).toBe("https://a.example/");
    expect(batches).toEqual([{ a: 1 }]);
  });

  test("caps the number of codes per write", async () => {
    const known = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`c${i}`, `https://x.example/${i}`]));
    const { store, batches } = recordingStore(known);
    const counter = new VisitCounter(store, clock, 2);
    await Promise.all(Object.keys(known).map((code) => counter.visit(code)));
    expect(batches.map((b) => Object.keys(b).length)).toEqual([2, 2, 1]);
  });

  test("drain waits for every visit taken so far", async () => {
    const { store, batches } = recordingStore({ a: "https://a.example/" });
    const counter = new VisitCounter(store, clock);
    void counter.visit("a");
    void counter.visit("a");
    await counter.drain();
    expect(batches).toEqual([{ a: 2 }]);
  });
});
