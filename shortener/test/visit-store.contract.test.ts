import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Database } from "../src/storage/open-database.ts";
import { dimensions, LinkVisits } from "../src/visits/link-visits.ts";
import { namedValuesPerDay } from "../src/visits/named-values.ts";
import { visitLogRowsPerStep } from "../src/visits/visit-log.ts";
import type { VisitFacts } from "../src/visits/visit-facts.ts";
import type { FactCount } from "../src/visits/visit-store.ts";
import { postgresStores, storeEngines } from "./support/store-engines.ts";

const human: VisitFacts = { bot: false, referrer: "news.example", country: "DE", browser: "Firefox", os: "Linux", device: "desktop" };
const phone: VisitFacts = { bot: false, referrer: "direct", country: "JP", browser: "Safari", os: "iOS", device: "mobile" };
const crawler: VisitFacts = { bot: true, referrer: "direct", country: "US", browser: "Googlebot", os: "other", device: "bot" };

function visitsOf(...facts: VisitFacts[]): LinkVisits {
  const visits = new LinkVisits();
  for (const one of facts) visits.add(one);
  return visits;
}

const at = (iso: string) => new Date(iso);

/** Every bucket a test may write. */
const allTime = [at("2000-01-01T00:00:00Z"), at("2100-01-01T00:00:00Z")] as const;

/** `count` Referer hosts never seen before, `${prefix}-000.example` on. */
const hosts = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(3, "0")}.example`);

/** One visit from each of these Referer hosts. */
const fromReferrers = (referrers: string[]) => visitsOf(...referrers.map((referrer) => ({ ...human, referrer })));

/** Facts in one order, to compare whole lists. */
const byValue = (facts: FactCount[]) => [...facts].sort((a, b) => `${a.dimension}/${a.value}`.localeCompare(`${b.dimension}/${b.value}`));

/** The referrer rows of these facts, as value -> visits. */
const referrersIn = (facts: FactCount[]) => Object.fromEntries(facts.filter((f) => f.dimension === "referrers").map((f) => [f.value, f.visits]));

/**
 * The analytics that recordVisits writes with the counts, read back through
 * the VisitStore, on every engine. The invariant every test leans on: a
 * link's buckets add up to its access_count, and so does each breakdown.
 */
describe.each(storeEngines)("visit analytics on $engine", ({ open }) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  let seq = 0;
  const newCode = (name: string) => `${name}${++seq}`;

  beforeAll(async () => {
    ({ db, cleanup } = await open());
  });
  afterAll(async () => {
    await db.close();
    await cleanup();
  });

  async function link(name: string): Promise<string> {
    const code = newCode(name);
    await db.links.insert({ code, longUrl: `https://example.com/${code}`, manageTokenHash: `hash-${code}`, createdAt: at("2026-01-01T00:00:00Z") });
    return code;
  }

  /** Sum of a link's buckets, and of each breakdown, over all time, next to its access_count. */
  async function totalsOf(code: string): Promise<Record<string, number>> {
    const buckets = await db.visits.buckets({ code }, ...allTime);
    const facts = await db.visits.facts({ code }, "2000-01-01", "2100-01-01");
    const perDimension = Object.fromEntries(dimensions.map((d) => [d, facts.filter((f) => f.dimension === d).reduce((sum, f) => sum + f.visits, 0)]));
    return {
      accessCount: (await db.links.find(code))!.accessCount,
      buckets: buckets.reduce((sum, b) => sum + b.humans + b.bots, 0),
      ...perDimension,
    };
  }

  test("a batch lands in the link's hour, split humans and bots, and in each breakdown of its day", async () => {
    const code = await link("one");
    await db.links.recordVisits(new Map([[code, visitsOf(human, human, phone, crawler)]]), at("2026-11-22T07:42:10.500Z"));

    expect(await db.visits.buckets({ code }, ...allTime)).toEqual([{ startsAt: at("2026-11-22T07:00:00Z"), hours: 1, humans: 3, bots: 1 }]);
    const facts = await db.visits.facts({ code }, "2026-11-22", "2026-11-22");
    expect(byValue(facts)).toEqual([
      { dimension: "browsers", value: "Firefox", visits: 2, bots: 0 },
      { dimension: "browsers", value: "Googlebot", visits: 1, bots: 1 },
      { dimension: "browsers", value: "Safari", visits: 1, bots: 0 },
      { dimension: "countries", value: "DE", visits: 2, bots: 0 },
      { dimension: "countries", value: "JP", visits: 1, bots: 0 },
      { dimension: "countries", value: "US", visits: 1, bots: 1 },
      { dimension: "devices", value: "bot", visits: 1, bots: 1 },
      { dimension: "devices", value: "desktop", visits: 2, bots: 0 },
      { dimension: "devices", value: "mobile", visits: 1, bots: 0 },
      { dimension: "os", value: "iOS", visits: 1, bots: 0 },
      { dimension: "os", value: "Linux", visits: 2, bots: 0 },
      { dimension: "os", value: "other", visits: 1, bots: 1 },
      { dimension: "referrers", value: "direct", visits: 2, bots: 1 },
      { dimension: "referrers", value: "news.example", visits: 2, bots: 0 },
    ]);
    expect(await totalsOf(code)).toEqual({ accessCount: 4, buckets: 4, referrers: 4, countries: 4, browsers: 4, os: 4, devices: 4 });
  });

  test("batches in the same hour add up; another hour and another day get their own rows", async () => {
    const code = await link("hours");
    await db.links.recordVisits(new Map([[code, visitsOf(human)]]), at("2026-11-22T23:10:00Z"));
    await db.links.recordVisits(new Map([[code, visitsOf(crawler, human)]]), at("2026-11-22T23:59:59.999Z"));
    await db.links.recordVisits(new Map([[code, visitsOf(phone)]]), at("2026-11-23T00:00:00Z"));

    expect(await db.visits.buckets({ code }, ...allTime)).toEqual([
      { startsAt: at("2026-11-22T23:00:00Z"), hours: 1, humans: 2, bots: 1 },
      { startsAt: at("2026-11-23T00:00:00Z"), hours: 1, humans: 1, bots: 0 },
    ]);
    expect(await db.visits.facts({ code }, "2026-11-23", "2026-11-23")).toContainEqual({ dimension: "countries", value: "JP", visits: 1, bots: 0 });
    expect(await db.visits.facts({ code }, "2026-11-22", "2026-11-22")).not.toContainEqual(expect.objectContaining({ value: "JP" }));
  });

  test("visits of a missing link leave no analytics; visits without facts only count", async () => {
    const code = await link("plain");
    await db.links.recordVisits(
      new Map([
        [code, LinkVisits.counting(5)],
        ["no-such-link", visitsOf(human)],
      ]),
      at("2026-11-22T10:00:00Z"),
    );
    expect(await db.visits.buckets({ code: "no-such-link" }, ...allTime)).toEqual([]);
    expect(await db.visits.facts({ code: "no-such-link" }, "2000-01-01", "2100-01-01")).toEqual([]);
    expect(await totalsOf(code)).toMatchObject({ accessCount: 5, buckets: 0 });
  });

  test("one value's visits per day, bots among them, for one link or every link", async () => {
    const [code, other] = [await link("days"), await link("days")];
    // 2034: a year no other test of this file writes in.
    await db.links.recordVisits(new Map([[code, visitsOf(human, crawler)]]), at("2034-04-01T10:00:00Z"));
    await db.links.recordVisits(new Map([[code, visitsOf(phone, crawler, crawler)]]), at("2034-04-03T23:59:59.999Z"));
    await db.links.recordVisits(new Map([[other, visitsOf(crawler)]]), at("2034-04-03T08:00:00Z"));

    expect(await db.visits.factDays({ code }, "referrers", "direct", "2034-04-01", "2034-04-03")).toEqual([
      { day: "2034-04-01", visits: 1, bots: 1 },
      { day: "2034-04-03", visits: 3, bots: 2 },
    ]);
    expect(await db.visits.factDays({ code }, "countries", "JP", "2034-04-01", "2034-04-02")).toEqual([]);
    expect(await db.visits.factDays({}, "browsers", "Googlebot", "2034-04-01", "2034-04-30")).toEqual([
      { day: "2034-04-01", visits: 1, bots: 1 },
      { day: "2034-04-03", visits: 3, bots: 3 },
    ]);
  });

  test("deleting a link deletes its analytics", async () => {
    const code = await link("gone");
    await db.links.recordVisits(new Map([[code, visitsOf(human, crawler)]]), at("2026-11-22T10:00:00Z"));
    await db.links.delete(code);
    expect(await db.visits.buckets({ code }, ...allTime)).toEqual([]);
    expect(await db.visits.facts({ code }, "2000-01-01", "2100-01-01")).toEqual([]);
  });

  test("a batch's visits wait in the visit log: one summing turn sums them once, and reads see them before it", async () => {
    await db.visits.sumVisitLog();
    const [first, second] = [await link("logged"), await link("logged")];
    await db.links.recordVisits(
      new Map([
        [first, visitsOf(human, crawler)],
        [second, visitsOf(phone)],
      ]),
      at("2026-11-23T08:15:00Z"),
    );
    await db.links.recordVisits(new Map([[first, visitsOf(phone)]]), at("2026-11-23T08:45:00Z"));
    // Not summed yet: a read sums the log first.
    expect(await db.visits.buckets({ code: first }, ...allTime)).toEqual([{ startsAt: at("2026-11-23T08:00:00Z"), hours: 1, humans: 2, bots: 1 }]);
    expect(await totalsOf(second)).toEqual({ accessCount: 1, buckets: 1, referrers: 1, countries: 1, browsers: 1, os: 1, devices: 1 });

    await db.links.recordVisits(new Map([[second, visitsOf(human, human)]]), at("2026-11-23T09:05:00Z"));
    // A row per link and batch, summed by one turn; the next finds nothing left.
    expect(await db.visits.sumVisitLog()).toBe(1);
    expect(await db.visits.sumVisitLog()).toBe(0);
    expect(await totalsOf(first)).toEqual({ accessCount: 3, buckets: 3, referrers: 3, countries: 3, browsers: 3, os: 3, devices: 3 });
    expect(await totalsOf(second)).toEqual({ accessCount: 3, buckets: 3, referrers: 3, countries: 3, browsers: 3, os: 3, devices: 3 });
  });

  test("a link deleted before its visits were summed leaves nothing behind, and the others' are summed", async () => {
    await db.visits.sumVisitLog();
    const [gone, kept] = [await link("unsummed"), await link("unsummed")];
    const hour = at("2026-11-24T13:20:00Z");
    await db.links.recordVisits(
      new Map([
        [gone, visitsOf(human, phone)],
        [kept, visitsOf(crawler)],
      ]),
      hour,
    );
    await db.links.delete(gone);
    expect(await db.visits.sumVisitLog()).toBe(1);
    expect(await db.visits.buckets({}, at("2026-11-24T00:00:00Z"), at("2026-11-25T00:00:00Z"))).toEqual([
      { startsAt: at("2026-11-24T13:00:00Z"), hours: 1, humans: 0, bots: 1 },
    ]);
    expect(await db.visits.facts({ code: gone }, "2026-11-24", "2026-11-24")).toEqual([]);
  });

  test("a log longer than one summing step is summed step by step before a read", async () => {
    await db.visits.sumVisitLog();
    const codes = Array.from({ length: visitLogRowsPerStep + 7 }, () => newCode("backlog"));
    await db.links.insertMany(
      codes.map((code) => ({ code, longUrl: `https://example.com/${code}`, manageTokenHash: `hash-${code}`, createdAt: at("2026-01-01T00:00:00Z") })),
    );
    await db.links.recordVisits(new Map(codes.map((code, i) => [code, visitsOf(i % 2 === 0 ? human : crawler)])), at("2026-11-25T16:00:00Z"));
    const [bucket] = await db.visits.buckets({}, at("2026-11-25T16:00:00Z"), at("2026-11-25T17:00:00Z"));
    expect(bucket).toEqual({ startsAt: at("2026-11-25T16:00:00Z"), hours: 1, humans: Math.ceil(codes.length / 2), bots: Math.floor(codes.length / 2) });
    expect(await db.visits.sumVisitLog()).toBe(0);
  });

  test("concurrent batches over the same links in different orders keep every invariant", async () => {
    const codes = [await link("hot"), await link("hot"), await link("hot")];
    const kinds = [human, phone, crawler];
    const batches = Array.from({ length: 30 }, (_, i) => {
      const order = i % 2 === 0 ? codes : [...codes].reverse();
      return db.links.recordVisits(
        new Map(order.map((code, j) => [code, visitsOf(...Array.from({ length: j + 1 }, (_, k) => kinds[(i + k) % 3]!))])),
        at("2026-11-22T11:30:00Z"),
      );
    });
    await Promise.all(batches);
    for (const code of codes) {
      const totals = await totalsOf(code);
      expect(totals).toEqual({ accessCount: 60, buckets: 60, referrers: 60, countries: 60, browsers: 60, os: 60, devices: 60 });
    }
  });

  test("reads a range of one link or of every link, and the links with the most visits", async () => {
    const [a, b] = [await link("rng"), await link("rng")];
    // A year the other tests do not write in, so "every link" means these two.
    await db.links.recordVisits(
      new Map([
        [a, visitsOf(human, human)],
        [b, visitsOf(crawler)],
      ]),
      at("2031-03-01T09:15:00Z"),
    );
    await db.links.recordVisits(new Map([[a, visitsOf(phone)]]), at("2031-03-01T10:15:00Z"));
    await db.links.recordVisits(new Map([[b, visitsOf(human, human, human, human)]]), at("2031-03-02T08:00:00Z"));

    expect(await db.visits.buckets({ code: a }, at("2031-03-01T10:00:00Z"), at("2031-03-02T00:00:00Z"))).toEqual([
      { startsAt: at("2031-03-01T10:00:00Z"), hours: 1, humans: 1, bots: 0 },
    ]);
    expect(await db.visits.buckets({}, at("2031-03-01T00:00:00Z"), at("2031-03-03T00:00:00Z"))).toEqual([
      { startsAt: at("2031-03-01T09:00:00Z"), hours: 1, humans: 2, bots: 1 },
      { startsAt: at("2031-03-01T10:00:00Z"), hours: 1, humans: 1, bots: 0 },
      { startsAt: at("2031-03-02T08:00:00Z"), hours: 1, humans: 4, bots: 0 },
    ]);
    expect(await db.visits.facts({}, "2031-03-01", "2031-03-01")).toContainEqual({ dimension: "devices", value: "desktop", visits: 2, bots: 0 });
    expect(await db.visits.topLinks(at("2031-03-01T00:00:00Z"), at("2031-03-03T00:00:00Z"), 10)).toEqual([
      { code: b, visits: 5 },
      { code: a, visits: 3 },
    ]);
    expect(await db.visits.topLinks(at("2031-03-01T00:00:00Z"), at("2031-03-02T00:00:00Z"), 1)).toEqual([{ code: a, visits: 3 }]);
  });

  test("counts visits per link and UTC day for the links named, in one query", async () => {
    const [a, b, quiet] = [await link("day"), await link("day"), await link("day")];
    // 2032: a year no other test writes in.
    await db.links.recordVisits(
      new Map([
        [a, visitsOf(human, crawler)],
        [b, visitsOf(phone)],
      ]),
      at("2032-03-01T00:00:00Z"),
    );
    await db.links.recordVisits(new Map([[a, visitsOf(human)]]), at("2032-03-01T23:59:59.999Z"));
    await db.links.recordVisits(new Map([[a, visitsOf(phone)]]), at("2032-03-03T12:00:00Z"));
    // Just before the range, and at its (excluded) end.
    await db.links.recordVisits(new Map([[b, visitsOf(human)]]), at("2032-02-29T23:59:59.999Z"));
    await db.links.recordVisits(new Map([[a, visitsOf(human)]]), at("2032-03-04T00:00:00Z"));

    const counts = await db.visits.dailyCounts([a, b, quiet, "no-such-link"], at("2032-03-01T00:00:00Z"), at("2032-03-04T00:00:00Z"));

    expect(counts.sort((x, y) => `${x.code}/${x.day}`.localeCompare(`${y.code}/${y.day}`))).toEqual([
      { code: a, day: "2032-03-01", visits: 3 },
      { code: a, day: "2032-03-03", visits: 1 },
      { code: b, day: "2032-03-01", visits: 1 },
    ]);
    expect(await db.visits.dailyCounts([], at("2032-03-01T00:00:00Z"), at("2032-03-04T00:00:00Z"))).toEqual([]);
  });

  test("a day names at most namedValuesPerDay referrers: later new ones count as other, named ones keep their row", async () => {
    const code = await link("flood");
    const early = hosts("early", namedValuesPerDay - 10);
    const late = hosts("late", 60);
    await db.links.recordVisits(new Map([[code, fromReferrers(early)]]), at("2033-05-01T08:00:00Z"));
    // 60 new hosts when 10 names are left: the two with the most visits, then the first by name, take them.
    await db.links.recordVisits(new Map([[code, fromReferrers([...late, late[59]!, late[59]!, late[58]!, early[0]!, early[0]!])]]), at("2033-05-01T09:00:00Z"));
    // Past the bound: a new host, and one already counted as other, go to other; a named one keeps its row.
    await db.links.recordVisits(new Map([[code, fromReferrers(["later.example", late[30]!, early[1]!])]]), at("2033-05-01T23:59:59Z"));

    const referrers = referrersIn(await db.visits.facts({ code }, "2033-05-01", "2033-05-01"));
    expect(referrers).toEqual({
      ...Object.fromEntries(early.map((host) => [host, 1])),
      [early[0]!]: 3,
      [early[1]!]: 2,
      ...Object.fromEntries(late.slice(0, 8).map((host) => [host, 1])),
      [late[58]!]: 2,
      [late[59]!]: 3,
      // late-008 … late-057, later.example and late-030 again.
      other: 52,
    });
    expect(Object.keys(referrers)).toHaveLength(namedValuesPerDay + 1);
    expect(await totalsOf(code)).toEqual({ accessCount: 158, buckets: 158, referrers: 158, countries: 158, browsers: 158, os: 158, devices: 158 });
  });

  test("the bound is per UTC day: the day after a flood names new values again", async () => {
    const code = await link("fresh");
    await db.links.recordVisits(new Map([[code, fromReferrers(hosts("flood", namedValuesPerDay + 50))]]), at("2033-06-01T23:59:59.999Z"));
    await db.links.recordVisits(new Map([[code, fromReferrers(["next.example", "day.example"])]]), at("2033-06-02T00:00:00Z"));

    const firstDay = await db.visits.facts({ code }, "2033-06-01", "2033-06-01");
    // The same number of visits per host: the first by name are named.
    expect(referrersIn(firstDay)).toEqual({ ...Object.fromEntries(hosts("flood", namedValuesPerDay).map((host) => [host, 1])), other: 50 });
    expect(byValue(await db.visits.facts({ code }, "2033-06-02", "2033-06-02"))).toEqual([
      { dimension: "browsers", value: "Firefox", visits: 2, bots: 0 },
      { dimension: "countries", value: "DE", visits: 2, bots: 0 },
      { dimension: "devices", value: "desktop", visits: 2, bots: 0 },
      { dimension: "os", value: "Linux", visits: 2, bots: 0 },
      { dimension: "referrers", value: "day.example", visits: 1, bots: 0 },
      { dimension: "referrers", value: "next.example", visits: 1, bots: 0 },
    ]);
    const total = namedValuesPerDay + 52;
    expect(await totalsOf(code)).toEqual({
      accessCount: total,
      buckets: total,
      referrers: total,
      countries: total,
      browsers: total,
      os: total,
      devices: total,
    });
  });

  test("batches written at once, each with new referrers, name no more than the bound and count every visit", async () => {
    const [a, b] = [await link("race"), await link("race")];
    // 12 batches of 25 new hosts for each of two links, the links in either order, on as many connections as the engine has.
    const batches = Array.from({ length: 12 }, (_, i) => {
      const order = i % 2 === 0 ? [a, b] : [b, a];
      return new Map(order.map((code) => [code, fromReferrers(hosts(`${code}-${i}`, 25))]));
    });
    await Promise.all(batches.map((batch) => db.links.recordVisits(batch, at("2033-07-01T12:00:00Z"))));

    for (const code of [a, b]) {
      const referrers = referrersIn(await db.visits.facts({ code }, "2033-07-01", "2033-07-01"));
      expect({ values: Object.keys(referrers).length, other: referrers.other }).toEqual({ values: namedValuesPerDay + 1, other: 300 - namedValuesPerDay });
      expect(await totalsOf(code)).toEqual({ accessCount: 300, buckets: 300, referrers: 300, countries: 300, browsers: 300, os: 300, devices: 300 });
    }
  });

  test("folding old hours into days changes no total, keeps newer hours, and can run again", async () => {
    const code = await link("fold");
    // Midnight, mid-day and last hour of one old day, an hour of the next, and a recent hour.
    for (const [iso, facts] of [
      ["2030-05-01T00:20:00Z", [human]],
      ["2030-05-01T13:00:00Z", [crawler, human]],
      ["2030-05-01T23:59:00Z", [phone]],
      ["2030-05-02T05:00:00Z", [human, human]],
      ["2030-06-15T12:00:00Z", [crawler]],
    ] as const) {
      await db.links.recordVisits(new Map([[code, visitsOf(...facts)]]), at(iso));
    }
    const before = await totalsOf(code);

    const folded = await db.visits.foldHoursBefore(at("2030-06-01T00:00:00Z"));

    expect(folded).toBeGreaterThanOrEqual(3);
    expect(await db.visits.buckets({ code }, ...allTime)).toEqual([
      { startsAt: at("2030-05-01T00:00:00Z"), hours: 24, humans: 3, bots: 1 },
      { startsAt: at("2030-05-02T00:00:00Z"), hours: 24, humans: 2, bots: 0 },
      { startsAt: at("2030-06-15T12:00:00Z"), hours: 1, humans: 0, bots: 1 },
    ]);
    expect(await totalsOf(code)).toEqual(before);
    // Nothing left to fold: a second run changes nothing.
    expect(await db.visits.foldHoursBefore(at("2030-06-01T00:00:00Z"))).toBe(0);
    expect(await totalsOf(code)).toEqual(before);
  });
});

/**
 * The every-link reads (scope `{}`, topLinks) read summed finished days
 * (rollUpBefore) and only the days since from the per-link rows. The oracle
 * is a second database that receives the same writes and is never summed:
 * every read must agree with it whatever the rollups' edge, after a fold,
 * and after a link is deleted.
 */
describe.each(storeEngines)("every-link visits summed by day on $engine", ({ open }) => {
  let summed: Database;
  let oracle: Database;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    const [one, two] = [await open(), await open()];
    [summed, oracle] = [one.db, two.db];
    cleanups.push(one.cleanup, two.cleanup);
  });
  afterAll(async () => {
    await summed.close();
    await oracle.close();
    for (const cleanup of cleanups) await cleanup();
  });

  const both = async (write: (db: Database) => Promise<unknown>) => {
    await write(summed);
    await write(oracle);
  };
  const codes = ["sa", "sb", "sc"] as const;
  /** Hours in January, February and March 2029, across midnights and month ends. */
  const writes: Array<[string, Partial<Record<(typeof codes)[number], VisitFacts[]>>]> = [
    ["2029-01-30T10:05:00Z", { sa: [human, human], sb: [crawler] }],
    ["2029-01-31T23:30:00Z", { sa: [phone] }],
    ["2029-02-01T00:10:00Z", { sb: [human], sc: [phone] }],
    ["2029-02-15T12:00:00Z", { sc: [human, phone, crawler] }],
    ["2029-02-28T23:59:59.999Z", { sb: [phone, phone] }],
    ["2029-03-01T00:00:00Z", { sa: [crawler] }],
    ["2029-03-02T08:00:00Z", { sa: [human], sb: [human] }],
    ["2029-03-03T09:00:00Z", { sc: [human] }],
  ];

  /** Every every-link read the reports make, over ranges that start and end inside days and months. */
  async function everyLinkReads(db: Database) {
    const ranges = [
      ["2029-01-01T00:00:00Z", "2029-04-01T00:00:00Z"],
      ["2029-01-30T11:00:00Z", "2029-03-02T09:00:00Z"],
      ["2029-02-01T00:00:00Z", "2029-03-01T00:00:00Z"],
      ["2029-02-10T00:00:00Z", "2029-02-20T00:00:00Z"],
      ["2029-03-01T00:00:00Z", "2029-03-04T00:00:00Z"],
    ].map(([from, to]) => [at(from!), at(to!)] as const);
    return {
      buckets: await Promise.all(ranges.map(([from, to]) => db.visits.buckets({}, from, to))),
      facts: await Promise.all(
        [
          ["2029-01-30", "2029-03-03"],
          ["2029-01-31", "2029-02-01"],
          ["2029-03-02", "2029-03-02"],
        ].map(async ([from, to]) => byValue(await db.visits.facts({}, from!, to!))),
      ),
      top: await Promise.all(ranges.flatMap(([from, to]) => [db.visits.topLinks(from, to, 10), db.visits.topLinks(from, to, 1)])),
      days: await Promise.all(
        (
          [
            ["devices", "bot", "2029-01-29", "2029-03-04"],
            ["countries", "DE", "2029-01-30", "2029-03-02"],
            ["referrers", "direct", "2029-02-01", "2029-02-28"],
          ] as const
        ).map(([dimension, value, from, to]) => db.visits.factDays({}, dimension, value, from, to)),
      ),
    };
  }

  test("the reads agree with the unsummed database at every edge, after a fold and after a deletion", async () => {
    for (const code of codes) {
      await both((db) =>
        db.links.insert({ code, longUrl: `https://example.com/${code}`, manageTokenHash: `hash-${code}`, createdAt: at("2029-01-01T00:00:00Z") }),
      );
    }
    for (const [iso, perLink] of writes) {
      const batch = new Map(Object.entries(perLink).map(([code, facts]) => [code, visitsOf(...facts!)]));
      await both((db) => db.links.recordVisits(batch, at(iso)));
    }
    const expected = await everyLinkReads(oracle);
    expect(expected.top[0]).toEqual([
      { code: "sa", visits: 5 },
      { code: "sb", visits: 5 },
      { code: "sc", visits: 5 },
    ]);
    expect(expected.days[0]).toEqual([
      { day: "2029-01-30", visits: 1, bots: 1 },
      { day: "2029-02-15", visits: 1, bots: 1 },
      { day: "2029-03-01", visits: 1, bots: 1 },
    ]);

    // Part of February, then up to the last day: the steps add up, and a second run has nothing left.
    // Steps start at the first visit past the edge (their length is the engine's).
    expect(await summed.visits.rollUpBefore(at("2029-02-10T00:00:00Z"))).toBeGreaterThanOrEqual(3);
    expect(await everyLinkReads(summed)).toEqual(expected);
    expect(await summed.visits.rollUpBefore(at("2029-03-03T00:00:00Z"))).toBeGreaterThanOrEqual(4);
    expect(await summed.visits.rollUpBefore(at("2029-03-03T00:00:00Z"))).toBe(0);
    expect(await everyLinkReads(summed)).toEqual(expected);

    await both((db) => db.visits.foldHoursBefore(at("2029-02-16T00:00:00Z")));
    const folded = await everyLinkReads(oracle);
    expect(folded.buckets[0]).toContainEqual({ startsAt: at("2029-01-30T00:00:00Z"), hours: 24, humans: 2, bots: 1 });
    expect(await everyLinkReads(summed)).toEqual(folded);

    // sb is the only one with Googlebot on 2029-01-30: the day's breakdown loses the value, not lists it with 0.
    await both((db) => db.links.delete("sb"));
    const deleted = await everyLinkReads(oracle);
    expect(deleted.top[0]).toEqual([
      { code: "sa", visits: 5 },
      { code: "sc", visits: 5 },
    ]);
    expect(await everyLinkReads(summed)).toEqual(deleted);
    expect(await summed.visits.facts({}, "2029-01-30", "2029-01-30")).not.toContainEqual(expect.objectContaining({ value: "Googlebot" }));
    // A new link under the deleted one's code starts from nothing.
    await both((db) =>
      db.links.insert({ code: "sb", longUrl: "https://example.com/again", manageTokenHash: "hash-sb-again", createdAt: at("2029-04-01T00:00:00Z") }),
    );
    expect(await everyLinkReads(summed)).toEqual(deleted);
  });

  test("days with no visits are passed over, and a day past the edge is read from the links' rows", async () => {
    // After the test above the edge is 2029-03-03: a step from that day, then a jump over the empty years.
    expect(await summed.visits.rollUpBefore(at("2035-01-01T00:00:00Z"))).toBeGreaterThanOrEqual(1);
    expect(await summed.visits.rollUpBefore(at("2035-01-01T00:00:00Z"))).toBe(0);
    await summed.links.recordVisits(new Map([["sa", visitsOf(human)]]), at("2036-06-01T12:00:00Z"));
    expect(await summed.visits.rollUpBefore(at("2036-06-01T00:00:00Z"))).toBe(0);
    expect(await summed.visits.topLinks(at("2036-01-01T00:00:00Z"), at("2037-01-01T00:00:00Z"), 10)).toEqual([{ code: "sa", visits: 1 }]);
    expect(await summed.visits.buckets({}, at("2029-03-03T00:00:00Z"), at("2029-03-04T00:00:00Z"))).toEqual([
      { startsAt: at("2029-03-03T09:00:00Z"), hours: 1, humans: 1, bots: 0 },
    ]);
  });

  test("a flooded link's breakdowns are summed, and taken back out, within the bound", async () => {
    // 2037: past the edge the tests above leave.
    for (const code of ["flood", "calm"]) {
      await both((db) =>
        db.links.insert({ code, longUrl: `https://example.com/${code}`, manageTokenHash: `hash-${code}`, createdAt: at("2037-01-01T00:00:00Z") }),
      );
    }
    const batch = new Map([
      ["flood", fromReferrers(hosts("flood", namedValuesPerDay + 20))],
      ["calm", visitsOf(human)],
    ]);
    await both((db) => db.links.recordVisits(batch, at("2037-02-01T10:00:00Z")));
    const factsOf = async (db: Database) => byValue(await db.visits.facts({}, "2037-02-01", "2037-02-01"));

    expect(await summed.visits.rollUpBefore(at("2037-02-02T00:00:00Z"))).toBeGreaterThanOrEqual(1);
    expect(await factsOf(summed)).toEqual(await factsOf(oracle));
    expect(referrersIn(await factsOf(summed))).toEqual({
      ...Object.fromEntries(hosts("flood", namedValuesPerDay).map((host) => [host, 1])),
      other: 20,
      "news.example": 1,
    });

    await both((db) => db.links.delete("flood"));
    expect(await factsOf(summed)).toEqual(await factsOf(oracle));
    expect(referrersIn(await factsOf(summed))).toEqual({ "news.example": 1 });
  });
});

describe("a report's snapshot on Postgres", () => {
  const stores = postgresStores();

  test("reads one state of the database: visits committed between its reads are in none of them, and in the next report", async () => {
    const code = "snap";
    await stores.db.links.insert({ code, longUrl: "https://example.com/snap", manageTokenHash: "hash-snap", createdAt: at("2026-01-01T00:00:00Z") });
    await stores.db.links.recordVisits(new Map([[code, visitsOf(human)]]), at("2026-11-22T07:00:00Z"));
    const visitsIn = (buckets: Array<{ humans: number; bots: number }>) => buckets.reduce((sum, bucket) => sum + bucket.humans + bucket.bots, 0);
    const browsersIn = (facts: FactCount[]) => facts.filter((fact) => fact.dimension === "browsers").reduce((sum, fact) => sum + fact.visits, 0);

    const seen = await stores.db.visits.snapshot(async (reads) => {
      const first = visitsIn(await reads.buckets({ code }, ...allTime));
      await stores.db.links.recordVisits(new Map([[code, visitsOf(human, phone)]]), at("2026-11-22T08:00:00Z"));
      await stores.db.visits.buckets({ code }, ...allTime); // sums the log, outside the snapshot
      return {
        first,
        second: visitsIn(await reads.buckets({ code }, ...allTime)),
        browsers: browsersIn(await reads.facts({ code }, "2000-01-01", "2100-01-01")),
      };
    });
    expect(seen).toEqual({ first: 1, second: 1, browsers: 1 });
    expect(visitsIn(await stores.db.visits.snapshot((reads) => reads.buckets({ code }, ...allTime)))).toBe(3);
  });
});
