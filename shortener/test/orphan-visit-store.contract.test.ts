import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Database } from "../src/storage/open-database.ts";
import { namedValuesPerDay } from "../src/visits/named-values.ts";
import type { OrphanCount, OrphanKind } from "../src/visits/orphan-visit-store.ts";
import { postgresStores, storeEngines } from "./support/store-engines.ts";

const count = (day: string, kind: OrphanKind, referrer: string, humans: number, bots = 0, domainId = 0): OrphanCount => ({
  day,
  domainId,
  kind,
  referrer,
  humans,
  bots,
});

/** `n` Referer hosts never seen before, `${prefix}-000.example` on. */
const hosts = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(3, "0")}.example`);

/** Every referrer a day's rows hold, as referrer -> visits (over its kinds), "other" included. */
async function referrersOn(db: Database, day: string): Promise<Record<string, number>> {
  const { referrers } = await db.orphans.breakdowns({ fromDay: day, toDay: day }, 10_000);
  const { kinds } = await db.orphans.breakdowns({ fromDay: day, toDay: day }, 0);
  const named = referrers.reduce((sum, entry) => sum + entry.visits, 0);
  const total = kinds.reduce((sum, entry) => sum + entry.visits, 0);
  const rest = total - named;
  return { ...Object.fromEntries(referrers.map((entry) => [entry.value, entry.visits])), ...(rest > 0 ? { other: rest } : {}) };
}

/**
 * The counts of visits that led nowhere, written and read back through the
 * OrphanVisitStore, on every engine. Each test writes its own days, so the
 * tests share one database.
 */
describe.each(storeEngines)("orphan visits on $engine", ({ open }) => {
  let db: Database;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ db, cleanup } = await open());
  });
  afterAll(async () => {
    await db.close();
    await cleanup();
  });

  test("counts land per day, split humans and bots, and per kind and referrer", async () => {
    await db.orphans.add([
      count("2031-01-10", "unknown", "direct", 3, 1),
      count("2031-01-10", "expired", "news.example", 2),
      count("2031-01-10", "password", "news.example", 0, 4),
      count("2031-01-11", "exhausted", "mail.example", 1),
    ]);

    expect(await db.orphans.days({ fromDay: "2031-01-10", toDay: "2031-01-11" })).toEqual([
      { day: "2031-01-10", humans: 5, bots: 5 },
      { day: "2031-01-11", humans: 1, bots: 0 },
    ]);
    expect(await db.orphans.breakdowns({ fromDay: "2031-01-10", toDay: "2031-01-11" }, 10)).toEqual({
      kinds: [
        { value: "password", visits: 4 },
        { value: "unknown", visits: 4 },
        { value: "expired", visits: 2 },
        { value: "exhausted", visits: 1 },
      ],
      referrers: [
        { value: "news.example", visits: 6 },
        { value: "direct", visits: 4 },
        { value: "mail.example", visits: 1 },
      ],
    });
  });

  test("writes of the same day, kind and referrer add up, within one call and across calls", async () => {
    await db.orphans.add([count("2031-02-01", "unknown", "direct", 1), count("2031-02-01", "unknown", "direct", 2, 1)]);
    await db.orphans.add([count("2031-02-01", "unknown", "direct", 0, 5)]);
    await db.orphans.add([]);

    expect(await db.orphans.days({ fromDay: "2031-02-01", toDay: "2031-02-01" })).toEqual([{ day: "2031-02-01", humans: 3, bots: 6 }]);
    expect(await db.orphans.breakdowns({ fromDay: "2031-02-01", toDay: "2031-02-01" }, 10)).toEqual({
      kinds: [{ value: "unknown", visits: 9 }],
      referrers: [{ value: "direct", visits: 9 }],
    });
  });

  test("a range covers its first and last day, inclusive, and nothing outside; an empty range is empty", async () => {
    await db.orphans.add([
      count("2031-03-09", "unknown", "before.example", 1),
      count("2031-03-10", "unknown", "first.example", 2),
      count("2031-03-12", "expired", "last.example", 3),
      count("2031-03-13", "unknown", "after.example", 4),
    ]);

    expect(await db.orphans.days({ fromDay: "2031-03-10", toDay: "2031-03-12" })).toEqual([
      { day: "2031-03-10", humans: 2, bots: 0 },
      { day: "2031-03-12", humans: 3, bots: 0 },
    ]);
    expect(await db.orphans.breakdowns({ fromDay: "2031-03-10", toDay: "2031-03-12" }, 10)).toEqual({
      kinds: [
        { value: "expired", visits: 3 },
        { value: "unknown", visits: 2 },
      ],
      referrers: [
        { value: "last.example", visits: 3 },
        { value: "first.example", visits: 2 },
      ],
    });
    expect(await db.orphans.days({ fromDay: "2031-03-20", toDay: "2031-03-25" })).toEqual([]);
    expect(await db.orphans.breakdowns({ fromDay: "2031-03-20", toDay: "2031-03-25" }, 10)).toEqual({ kinds: [], referrers: [] });
  });

  test("each domain keeps its own counts; a read of one domain counts its rows only, a read of none counts all", async () => {
    const day = "2031-03-30";
    await db.orphans.add([
      count(day, "unknown", "news.example", 2, 1, 0),
      count(day, "unknown", "news.example", 5, 0, 7),
      count(day, "expired", "mail.example", 1, 0, 7),
    ]);
    await db.orphans.add([count(day, "unknown", "news.example", 1, 0, 7)]);

    expect(await db.orphans.days({ fromDay: day, toDay: day, domainId: 0 })).toEqual([{ day, humans: 2, bots: 1 }]);
    expect(await db.orphans.days({ fromDay: day, toDay: day, domainId: 7 })).toEqual([{ day, humans: 7, bots: 0 }]);
    expect(await db.orphans.days({ fromDay: day, toDay: day, domainId: 8 })).toEqual([]);
    expect(await db.orphans.days({ fromDay: day, toDay: day })).toEqual([{ day, humans: 9, bots: 1 }]);
    expect(await db.orphans.breakdowns({ fromDay: day, toDay: day, domainId: 7 }, 10)).toEqual({
      kinds: [
        { value: "unknown", visits: 6 },
        { value: "expired", visits: 1 },
      ],
      referrers: [
        { value: "news.example", visits: 6 },
        { value: "mail.example", visits: 1 },
      ],
    });
    expect(await db.orphans.breakdowns({ fromDay: day, toDay: day, domainId: 0 }, 10)).toEqual({
      kinds: [{ value: "unknown", visits: 3 }],
      referrers: [{ value: "news.example", visits: 3 }],
    });
  });

  test("a day's bound on referrers is over all its domains: a name given on one domain is kept on another", async () => {
    const day = "2031-04-20";
    await db.orphans.add(hosts("first", namedValuesPerDay).map((host) => count(day, "unknown", host, 1, 0, 3)));
    await db.orphans.add([count(day, "unknown", "first-000.example", 1, 0, 4), count(day, "unknown", "new.example", 1, 0, 4)]);

    const { referrers } = await db.orphans.breakdowns({ fromDay: day, toDay: day, domainId: 4 }, 10);
    expect(referrers).toEqual([{ value: "first-000.example", visits: 1 }]);
    expect(await db.orphans.days({ fromDay: day, toDay: day, domainId: 4 })).toEqual([{ day, humans: 2, bots: 0 }]);
  });

  test("referrers: the most visits first, ties in code-unit order, at most `limit`, and never the rows of other", async () => {
    await db.orphans.add([
      count("2031-04-01", "unknown", "b.example", 2),
      count("2031-04-01", "unknown", "B.example", 2),
      count("2031-04-01", "unknown", "a-b.example", 2),
      count("2031-04-01", "unknown", "ab.example", 2),
      count("2031-04-01", "unknown", "top.example", 5),
      count("2031-04-01", "unknown", "other", 50),
    ]);

    const { referrers } = await db.orphans.breakdowns({ fromDay: "2031-04-01", toDay: "2031-04-01" }, 4);
    expect(referrers).toEqual([
      { value: "top.example", visits: 5 },
      { value: "B.example", visits: 2 },
      { value: "a-b.example", visits: 2 },
      { value: "ab.example", visits: 2 },
    ]);
  });

  test("a day names at most namedValuesPerDay referrers over all kinds: later new ones count as other, named ones keep their row", async () => {
    const day = "2031-05-01";
    const early = hosts("early", namedValuesPerDay - 10);
    const late = hosts("late", 30);
    await db.orphans.add(early.map((host, i) => count(day, i % 2 === 0 ? "unknown" : "expired", host, 1)));
    // 30 new hosts when 10 names are left: the two with the most visits, then the first by name, take them.
    await db.orphans.add([
      ...late.map((host) => count(day, "password", host, 1)),
      count(day, "exhausted", late[29]!, 2),
      count(day, "unknown", late[28]!, 0, 1),
    ]);
    // Past the bound: a new host, and one already counted as other, go to other; a named one keeps its row, under any kind.
    await db.orphans.add([count(day, "unknown", "later.example", 1), count(day, "expired", late[15]!, 1), count(day, "password", early[0]!, 1)]);

    const referrers = await referrersOn(db, day);
    expect(referrers).toEqual({
      ...Object.fromEntries(early.map((host) => [host, 1])),
      [early[0]!]: 2,
      ...Object.fromEntries(late.slice(0, 8).map((host) => [host, 1])),
      [late[28]!]: 2,
      [late[29]!]: 3,
      // late-008 … late-027, later.example and late-015 again.
      other: 22,
    });
    expect(Object.keys(referrers)).toHaveLength(namedValuesPerDay + 1);
    // Every visit is still counted once.
    expect(await db.orphans.days({ fromDay: day, toDay: day })).toEqual([{ day, humans: early.length + 30 + 2 + 3, bots: 1 }]);
  });

  test("the bound is per UTC day: the day after a flood names new referrers again", async () => {
    await db.orphans.add(hosts("flood", namedValuesPerDay + 50).map((host) => count("2031-06-01", "unknown", host, 1)));
    await db.orphans.add([count("2031-06-02", "unknown", "next.example", 1), count("2031-06-02", "expired", "day.example", 1)]);

    // The same number of visits per host: the first by name are named.
    expect(await referrersOn(db, "2031-06-01")).toEqual({ ...Object.fromEntries(hosts("flood", namedValuesPerDay).map((host) => [host, 1])), other: 50 });
    expect(await referrersOn(db, "2031-06-02")).toEqual({ "next.example": 1, "day.example": 1 });
  });

  test("one write spanning two days bounds each day on its own", async () => {
    await db.orphans.add([
      ...hosts("eve", namedValuesPerDay + 1).map((host) => count("2031-07-01", "unknown", host, 1)),
      count("2031-07-02", "unknown", "morning.example", 1),
    ]);
    expect(Object.keys(await referrersOn(db, "2031-07-01"))).toHaveLength(namedValuesPerDay + 1);
    expect(await referrersOn(db, "2031-07-02")).toEqual({ "morning.example": 1 });
  });

  test("writes at once, each with new referrers, name no more than the bound and count every visit", async () => {
    const day = "2031-08-01";
    // 12 writes of 25 new hosts each, on as many connections as the engine has.
    await Promise.all(Array.from({ length: 12 }, (_, i) => db.orphans.add(hosts(`race-${i}`, 25).map((host) => count(day, "unknown", host, 1, 1)))));

    const referrers = await referrersOn(db, day);
    expect({ named: Object.keys(referrers).length - 1, other: referrers.other }).toEqual({ named: namedValuesPerDay, other: 2 * (300 - namedValuesPerDay) });
    expect(await db.orphans.days({ fromDay: day, toDay: day })).toEqual([{ day, humans: 300, bots: 300 }]);
  });
});

describe("the orphan visits' report snapshot on Postgres", () => {
  const stores = postgresStores();

  test("reads one state of the database: counts added between its days and its breakdowns are in neither", async () => {
    const day = "2031-03-01";
    await stores.db.orphans.add([count(day, "unknown", "direct", 1)]);
    const seen = await stores.db.orphans.snapshot(async (reads) => {
      const days = await reads.days({ fromDay: day, toDay: day });
      await stores.db.orphans.add([count(day, "expired", "news.example", 5)]);
      const { kinds } = await reads.breakdowns({ fromDay: day, toDay: day }, 10);
      return { days: days.map((one) => one.humans), kinds: kinds.map((one) => [one.value, one.visits]) };
    });
    expect(seen).toEqual({ days: [1], kinds: [["unknown", 1]] });
    expect((await stores.db.orphans.snapshot((reads) => reads.days({ fromDay: day, toDay: day }))).map((one) => one.humans)).toEqual([6]);
  });
});
