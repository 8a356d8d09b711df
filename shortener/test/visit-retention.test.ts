import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLogger, silentLogger } from "@linkgeo/shared";
import { createTestDatabase, type TestDatabase, waitFor } from "@linkgeo/testing";
import postgres from "postgres";
import { openDatabase, type Database } from "../src/storage/open-database.ts";
import { visitUpkeepLockId } from "../src/storage/postgres/postgres-visit-rollups.ts";
import { LinkVisits } from "../src/visits/link-visits.ts";
import { startVisitRetention } from "../src/visits/visit-retention.ts";

const visitor = { bot: false, referrer: "direct", country: "FR", browser: "Firefox", os: "Linux", device: "desktop" } as const;

async function visit(db: Database, code: string, iso: string, count = 1) {
  const visits = new LinkVisits();
  for (let i = 0; i < count; i++) visits.add(visitor);
  await db.links.recordVisits(new Map([[code, visits]]), new Date(iso));
}

const allTime = [new Date("2000-01-01T00:00:00Z"), new Date("2100-01-01T00:00:00Z")] as const;

describe("visit retention", () => {
  test("folds the hours of days older than hourlyDays, from whole UTC days, and logs it", async () => {
    const db = await openDatabase({ engine: "sqlite", path: ":memory:" });
    await db.links.insert({ code: "ret1", longUrl: "https://example.com/", manageTokenHash: "hash-ret1", createdAt: new Date() });
    // Now is 2026-11-22 10:00; 90 days of hours are kept: the fold cutoff is 2026-08-24T00:00Z.
    await visit(db, "ret1", "2026-08-23T23:30:00Z", 2);
    await visit(db, "ret1", "2026-08-24T00:30:00Z", 3);
    const lines: Record<string, unknown>[] = [];
    const log = createLogger({ service: "test", level: "info", format: "json", write: (line) => lines.push(JSON.parse(line)) });
    const retention = startVisitRetention({ store: db.visits, hourlyDays: 90, clock: () => new Date("2026-11-22T10:00:00Z"), log, everyMs: 3_600_000 });
    try {
      await retention.runOnce();
      expect(await db.visits.buckets({ code: "ret1" }, ...allTime)).toEqual([
        { startsAt: new Date("2026-08-23T00:00:00Z"), hours: 24, humans: 2, bots: 0 },
        { startsAt: new Date("2026-08-24T00:00:00Z"), hours: 1, humans: 3, bots: 0 },
      ]);
      expect(lines).toContainEqual(expect.objectContaining({ msg: "visit hours folded into days", hours: 1, before: "2026-08-24T00:00:00.000Z" }));
    } finally {
      retention.stop();
      await db.close();
    }
  });

  test("sums each finished UTC day an hour after it ends, and logs it", async () => {
    const db = await openDatabase({ engine: "sqlite", path: ":memory:" });
    await db.links.insert({ code: "sum1", longUrl: "https://example.com/", manageTokenHash: "hash-sum1", createdAt: new Date() });
    await visit(db, "sum1", "2026-11-20T10:00:00Z");
    await visit(db, "sum1", "2026-11-21T23:59:00Z");
    const lines: Record<string, unknown>[] = [];
    const log = createLogger({ service: "test", level: "info", format: "json", write: (line) => lines.push(JSON.parse(line)) });
    let now = new Date("2026-11-21T00:59:00Z");
    const retention = startVisitRetention({ store: db.visits, hourlyDays: 90, clock: () => now, log, everyMs: 3_600_000 });
    try {
      // At 00:59 2026-11-20 is not finished yet: nothing to sum (here, nor in the run at start).
      expect(await retention.runOnce()).toEqual({ summedDays: 0, foldedHours: 0 });
      now = new Date("2026-11-21T01:00:00Z");
      expect(await retention.runOnce()).toEqual({ summedDays: 1, foldedHours: 0 });
      now = new Date("2026-11-22T01:00:00Z");
      expect(await retention.runOnce()).toEqual({ summedDays: 1, foldedHours: 0 });
      expect(lines.filter((line) => line.msg === "visit days summed for the every-link report")).toEqual([
        expect.objectContaining({ days: 1, before: "2026-11-21T00:00:00.000Z" }),
        expect.objectContaining({ days: 1, before: "2026-11-22T00:00:00.000Z" }),
      ]);
      expect(await db.visits.topLinks(new Date("2026-11-01T00:00:00Z"), new Date("2026-12-01T00:00:00Z"), 10)).toEqual([{ code: "sum1", visits: 2 }]);
    } finally {
      retention.stop();
      await db.close();
    }
  });

  test("a failing store is logged, not thrown, and tried again next time", async () => {
    const warnings: string[] = [];
    let calls = 0;
    const retention = startVisitRetention({
      store: {
        foldHoursBefore: async () => {
          calls++;
          throw new Error("database is locked");
        },
        rollUpBefore: async () => {
          calls++;
          throw new Error("database is locked");
        },
      },
      hourlyDays: 90,
      clock: () => new Date(),
      log: { ...silentLogger, warn: (message) => warnings.push(message) },
    });
    try {
      expect(await retention.runOnce()).toEqual({ summedDays: 0, foldedHours: 0 });
      // Once at start, once by runOnce; each part fails on its own and the other still runs.
      expect(calls).toBe(4);
      expect(warnings.sort()).toEqual([
        "folding old visit hours failed; trying again later",
        "folding old visit hours failed; trying again later",
        "summing visit days failed; trying again later",
        "summing visit days failed; trying again later",
      ]);
    } finally {
      retention.stop();
    }
  });
});

describe("visit retention on Postgres with two replicas folding at once", () => {
  let testDb: TestDatabase;
  let replicas: Database[];
  beforeAll(async () => {
    testDb = await createTestDatabase("retention");
    replicas = [await openDatabase({ engine: "postgres", url: testDb.url }), await openDatabase({ engine: "postgres", url: testDb.url })];
  });
  afterAll(async () => {
    for (const db of replicas) await db.close();
    await testDb.drop();
  });

  test("fold every hour once: the totals are the same before and after, and nothing is folded twice", async () => {
    const [a, b] = replicas as [Database, Database];
    const codes = ["pga", "pgb", "pgc"];
    for (const code of codes) {
      await a.links.insert({ code, longUrl: "https://example.com/", manageTokenHash: `hash-${code}`, createdAt: new Date() });
      for (let hour = 0; hour < 48; hour++) await visit(a, code, new Date(Date.UTC(2026, 0, 1, hour, 30)).toISOString(), (hour % 5) + 1);
    }
    const totals = async () => (await a.visits.buckets({}, ...allTime)).reduce((sum, bucket) => sum + bucket.humans + bucket.bots, 0);
    const before = await totals();

    const folded = await Promise.all([a.visits.foldHoursBefore(new Date("2026-01-03T00:00:00Z")), b.visits.foldHoursBefore(new Date("2026-01-03T00:00:00Z"))]);

    expect(folded.reduce((sum, n) => sum + n, 0)).toBe(3 * 48 - 3 * 2);
    expect(await totals()).toBe(before);
    const perCode = await Promise.all(codes.map((code) => a.visits.buckets({ code }, ...allTime)));
    for (const buckets of perCode)
      expect(buckets.map((bucket) => [bucket.startsAt.toISOString(), bucket.hours])).toEqual([
        ["2026-01-01T00:00:00.000Z", 24],
        ["2026-01-02T00:00:00.000Z", 24],
      ]);
    for (const code of codes)
      expect((await a.links.find(code))!.accessCount).toBe((await a.visits.buckets({ code }, ...allTime)).reduce((sum, bucket) => sum + bucket.humans, 0));
  });

  test("sum every day once: two replicas summing at once leave the every-link reads as they were", async () => {
    const [a, b] = replicas as [Database, Database];
    const code = "pgsum";
    await a.links.insert({ code, longUrl: "https://example.com/", manageTokenHash: `hash-${code}`, createdAt: new Date() });
    for (let day = 0; day < 40; day++) await visit(a, code, new Date(Date.UTC(2027, 0, 1 + day, 12)).toISOString(), (day % 3) + 1);
    const reads = async () => ({
      buckets: await a.visits.buckets({}, ...allTime),
      facts: (await a.visits.facts({}, "2000-01-01", "2100-01-01")).sort((x, y) => `${x.dimension}/${x.value}`.localeCompare(`${y.dimension}/${y.value}`)),
      top: await a.visits.topLinks(...allTime, 10),
    });
    const before = await reads();

    const summed = await Promise.all([a.visits.rollUpBefore(new Date("2027-03-01T00:00:00Z")), b.visits.rollUpBefore(new Date("2027-03-01T00:00:00Z"))]);

    // Each step is one replica's; the other stops at the lock or finds the day summed. Every day with visits is summed once.
    expect(summed[0] + summed[1]).toBeGreaterThanOrEqual(40);
    expect(await a.visits.rollUpBefore(new Date("2027-03-01T00:00:00Z"))).toBe(0);
    expect(await reads()).toEqual(before);
  });
  test("a deletion waits for a summing step in progress, then takes the link out of the sums", async () => {
    const [a, b] = replicas as [Database, Database];
    for (const code of ["pgdel", "pgkeep"]) {
      await a.links.insert({ code, longUrl: "https://example.com/", manageTokenHash: `hash-${code}`, createdAt: new Date() });
      await visit(a, code, "2028-05-01T10:00:00Z", code === "pgdel" ? 3 : 2);
    }
    await a.visits.rollUpBefore(new Date("2028-05-02T00:00:00Z"));
    // What a replica summing a day holds; the deletion must wait for it, not race it.
    const upkeep = postgres(testDb.url, { max: 2, onnotice: () => {} });
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const step = upkeep.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${visitUpkeepLockId})`;
        await held;
      });
      await waitFor(
        "the upkeep lock to be held",
        async () =>
          (
            await upkeep`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`
          )[0]!.n === 1,
      );
      let deleted: boolean | undefined;
      const deletion = b.links.delete("pgdel").then((result) => (deleted = result));
      await waitFor(
        "the deletion to wait for the lock",
        async () =>
          (
            await upkeep`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`
          )[0]!.n === 1,
      );
      expect(deleted).toBeUndefined();
      release();
      await step;
      await deletion;
      expect(deleted).toBe(true);
    } finally {
      await upkeep.end();
    }
    expect(await a.visits.buckets({}, new Date("2028-05-01T00:00:00Z"), new Date("2028-05-02T00:00:00Z"))).toEqual([
      { startsAt: new Date("2028-05-01T10:00:00Z"), hours: 1, humans: 2, bots: 0 },
    ]);
    expect(await a.visits.topLinks(new Date("2028-05-01T00:00:00Z"), new Date("2028-05-02T00:00:00Z"), 10)).toEqual([{ code: "pgkeep", visits: 2 }]);
  });
});
