import { describe, expect, test } from "bun:test";
import { createLogger, silentLogger } from "@linkgeo/shared";
import { waitFor } from "@linkgeo/testing";
import type { OrphanCount, OrphanKind, OrphanVisitStore } from "../src/visits/orphan-visit-store.ts";
import { OrphanVisits, type OrphanVisitsDeps } from "../src/visits/orphan-visits.ts";

const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const curl = "curl/8.5.0";

/**
 * A store that keeps each batch it was given. With `held`, each write waits
 * until the test lets it finish: a database round trip during which more
 * visits come, with no clock. `fail` makes the next writes fail (rejecting,
 * or throwing before any promise).
 */
function recordingStore(options: { held?: boolean } = {}) {
  const batches: OrphanCount[][] = [];
  let failing: "reject" | "throw" | undefined;
  let started = 0;
  const waiting: Array<() => void> = [];
  const store: Pick<OrphanVisitStore, "add"> = {
    add(counts) {
      started++;
      if (failing === "throw") throw Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" });
      return (async () => {
        if (options.held) await new Promise<void>((resolve) => waiting.push(resolve));
        if (failing === "reject") throw Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" });
        batches.push(counts.map((count) => ({ ...count })));
      })();
    },
  };
  return {
    store,
    batches,
    started: () => started,
    fail: (how: "reject" | "throw" | undefined) => {
      failing = how;
    },
    release: () => {
      for (const finish of waiting.splice(0)) finish();
    },
  };
}

const noon = new Date("2026-11-22T12:00:00Z");

function recorder(store: Pick<OrphanVisitStore, "add">, deps: Partial<OrphanVisitsDeps> = {}) {
  // A write a minute after the first count: only drain() writes, unless a test says otherwise.
  return new OrphanVisits({ store, clock: () => noon, log: silentLogger, everyMs: 60_000, ...deps });
}

/** A batch's counts in one order, to compare whole batches. */
const sorted = (counts: OrphanCount[]) =>
  [...counts].sort((a, b) => `${a.day}/${a.domainId}/${a.kind}/${a.referrer}`.localeCompare(`${b.day}/${b.domainId}/${b.kind}/${b.referrer}`));

describe("OrphanVisits", () => {
  test("merges visits per UTC day, kind and referrer host, bots apart by User-Agent, into one write", async () => {
    const { store, batches } = recordingStore();
    const orphans = recorder(store);
    orphans.record("unknown", 0, { userAgent: firefox, referer: "https://news.example/item?id=1" });
    orphans.record("unknown", 0, { userAgent: firefox, referer: "https://NEWS.example:8443/other" });
    orphans.record("unknown", 0, { userAgent: googlebot, referer: "https://news.example/" });
    orphans.record("unknown", 0, { userAgent: null, referer: null });
    orphans.record("expired", 0, { userAgent: curl, referer: "android-app://com.example" });
    orphans.record("password", 0, { userAgent: firefox, referer: "" });
    orphans.record("exhausted", 0, { userAgent: firefox, referer: null });
    await orphans.drain();

    expect(batches).toHaveLength(1);
    expect(sorted(batches[0]!)).toEqual([
      { day: "2026-11-22", domainId: 0, kind: "exhausted", referrer: "direct", humans: 1, bots: 0 },
      { day: "2026-11-22", domainId: 0, kind: "expired", referrer: "unknown", humans: 0, bots: 1 },
      { day: "2026-11-22", domainId: 0, kind: "password", referrer: "direct", humans: 1, bots: 0 },
      { day: "2026-11-22", domainId: 0, kind: "unknown", referrer: "direct", humans: 0, bots: 1 },
      { day: "2026-11-22", domainId: 0, kind: "unknown", referrer: "news.example", humans: 2, bots: 1 },
    ]);
  });

  test("keeps each domain's visits apart: the same kind and referrer on two domains is two counts", async () => {
    const { store, batches } = recordingStore();
    const orphans = recorder(store);
    orphans.record("unknown", 0, { userAgent: firefox, referer: "https://news.example/" });
    orphans.record("unknown", 4, { userAgent: firefox, referer: "https://news.example/" });
    orphans.record("unknown", 4, { userAgent: googlebot, referer: "https://news.example/" });
    await orphans.drain();

    expect(sorted(batches[0]!)).toEqual([
      { day: "2026-11-22", domainId: 0, kind: "unknown", referrer: "news.example", humans: 1, bots: 0 },
      { day: "2026-11-22", domainId: 4, kind: "unknown", referrer: "news.example", humans: 1, bots: 1 },
    ]);
  });

  test("record returns at once, before any write; a write follows on its own after everyMs", async () => {
    const { store, batches } = recordingStore();
    const orphans = recorder(store, { everyMs: 5 });
    expect(orphans.record("unknown", 0, { userAgent: firefox, referer: null })).toBeUndefined();
    expect(batches).toEqual([]);
    await waitFor("the timed write", () => batches.length === 1);
    expect(batches).toEqual([[{ day: "2026-11-22", domainId: 0, kind: "unknown", referrer: "direct", humans: 1, bots: 0 }]]);
    expect(orphans.pendingCount).toBe(0);
  });

  test("visits of two UTC days are counted on their own days", async () => {
    const { store, batches } = recordingStore();
    let now = new Date("2026-11-22T23:59:59.999Z");
    const orphans = recorder(store, { clock: () => now });
    orphans.record("unknown", 0, { userAgent: firefox, referer: null });
    now = new Date("2026-11-23T00:00:00Z");
    orphans.record("unknown", 0, { userAgent: firefox, referer: null });
    await orphans.drain();
    expect(sorted(batches[0]!).map((count) => [count.day, count.humans])).toEqual([
      ["2026-11-22", 1],
      ["2026-11-23", 1],
    ]);
  });

  test("visits during a write go into the next one; drain writes everything and none is counted twice", async () => {
    const { store, batches, started, release } = recordingStore({ held: true });
    const orphans = recorder(store);
    orphans.record("unknown", 0, { userAgent: firefox, referer: null });
    const draining = orphans.drain();
    await waitFor("the first write to be in flight", () => started() === 1);
    for (let i = 0; i < 50; i++) orphans.record("unknown", 0, { userAgent: firefox, referer: null });
    orphans.record("expired", 0, { userAgent: googlebot, referer: null });
    release();
    await waitFor("the second write to be in flight", () => started() === 2);
    release();
    await draining;
    expect(batches.map(sorted)).toEqual([
      [{ day: "2026-11-22", domainId: 0, kind: "unknown", referrer: "direct", humans: 1, bots: 0 }],
      [
        { day: "2026-11-22", domainId: 0, kind: "expired", referrer: "direct", humans: 0, bots: 1 },
        { day: "2026-11-22", domainId: 0, kind: "unknown", referrer: "direct", humans: 50, bots: 0 },
      ],
    ]);
    expect(orphans.pendingCount).toBe(0);
  });

  test.each(["reject", "throw"] as const)(
    "a write that fails (%s) is logged without visitor data and dropped; callers never see it, and the next write goes out",
    async (how) => {
      const { store, batches, fail } = recordingStore();
      const lines: string[] = [];
      const log = createLogger({ service: "test", level: "info", format: "json", write: (line) => lines.push(line) });
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on("unhandledRejection", onUnhandled);
      try {
        const orphans = recorder(store, { log });
        fail(how);
        orphans.record("password", 0, { userAgent: firefox, referer: "https://secret-referrer.example/path" });
        orphans.record("password", 0, { userAgent: googlebot, referer: "https://secret-referrer.example/path" });
        await orphans.drain();
        fail(undefined);
        orphans.record("unknown", 0, { userAgent: firefox, referer: null });
        await orphans.drain();

        expect(batches).toEqual([[{ day: "2026-11-22", domainId: 0, kind: "unknown", referrer: "direct", humans: 1, bots: 0 }]]);
        expect(lines.map((line) => JSON.parse(line))).toEqual([
          expect.objectContaining({
            level: "warn",
            msg: "visits that led nowhere were not written, and are dropped",
            visits: 2,
            error: "Error: connection refused",
          }),
        ]);
        expect(lines.join("\n")).not.toContain("secret-referrer");
        expect(lines.join("\n")).not.toContain("Firefox");
        await Bun.sleep(0);
        expect(unhandled).toEqual([]);
      } finally {
        process.off("unhandledRejection", onUnhandled);
      }
    },
  );

  test("memory is bounded: past maxKeys, new referrers fold into one other per day and kind; every visit is still counted", async () => {
    const { store, batches } = recordingStore();
    const orphans = recorder(store, { maxKeys: 3 });
    for (let i = 0; i < 1000; i++) orphans.record(i % 2 === 0 ? "unknown" : "expired", 0, { userAgent: firefox, referer: `https://flood-${i}.example/` });
    // A referrer already held keeps its count past the bound.
    orphans.record("unknown", 0, { userAgent: firefox, referer: "https://flood-0.example/" });
    expect(orphans.pendingCount).toBe(5);
    await orphans.drain();
    expect(sorted(batches[0]!)).toEqual([
      { day: "2026-11-22", domainId: 0, kind: "expired", referrer: "flood-1.example", humans: 1, bots: 0 },
      { day: "2026-11-22", domainId: 0, kind: "expired", referrer: "other", humans: 499, bots: 0 },
      { day: "2026-11-22", domainId: 0, kind: "unknown", referrer: "flood-0.example", humans: 2, bots: 0 },
      { day: "2026-11-22", domainId: 0, kind: "unknown", referrer: "flood-2.example", humans: 1, bots: 0 },
      { day: "2026-11-22", domainId: 0, kind: "unknown", referrer: "other", humans: 498, bots: 0 },
    ]);
  });

  test("a write that hangs holds no more than the bound meanwhile, and record still returns at once", async () => {
    const { store, batches, started, release } = recordingStore({ held: true });
    const orphans = recorder(store, { maxKeys: 10 });
    orphans.record("unknown", 0, { userAgent: firefox, referer: null });
    const draining = orphans.drain();
    for (let i = 0; i < 10_000; i++) orphans.record("unknown", 0, { userAgent: firefox, referer: `https://host-${i}.example/` });
    expect(orphans.pendingCount).toBe(11);
    release();
    await waitFor("the second write to be in flight", () => started() === 2);
    release();
    await draining;
    expect(batches[1]!.reduce((sum, count) => sum + count.humans, 0)).toBe(10_000);
  });

  test("a kind it does not know (from untyped code) is not counted, and no error escapes", async () => {
    const { store, batches } = recordingStore();
    const orphans = recorder(store);
    orphans.record("gone" as OrphanKind, 0, { userAgent: firefox, referer: null });
    orphans.record("unknown", 0, { userAgent: 42 as unknown as string, referer: {} as unknown as string });
    await orphans.drain();
    expect(batches).toEqual([]);
  });

  test("drain with nothing recorded writes nothing", async () => {
    const { store, started } = recordingStore();
    await recorder(store).drain();
    expect(started()).toBe(0);
  });
});
