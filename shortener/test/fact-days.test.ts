import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database as SqliteDatabase } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "@linkgeo/testing";
import postgres from "postgres";
import { openDatabase, type Database } from "../src/storage/open-database.ts";
import { factDaysJson, factRowsMovedPerStep, namedIn, parseDayFacts } from "../src/visits/fact-days.ts";
import { beforeEveryLinkDay, FactDaysMoving, type FactDaysMoveStep, type LinkDay } from "../src/visits/fact-days-moving.ts";
import { LinkVisits } from "../src/visits/link-visits.ts";
import { namedValuesPerDay } from "../src/visits/named-values.ts";
import type { VisitFacts } from "../src/visits/visit-facts.ts";
import type { FactCount } from "../src/visits/visit-store.ts";

/**
 * A link's breakdowns of a day in one row (link_fact_days, issue 50): the
 * document itself, and, on both engines, a database that still holds days
 * in the old layout (link_visit_facts_old, a row per value): read as they
 * were, joined into a day's document when a visit adds to that day (the
 * bound on named values counting the old rows), and moved by the summing
 * job until none are left.
 */
describe("a day's document", () => {
  test("round-trips, breakdowns in their fixed order", () => {
    const text = '{"devices":{"bot":[1,1]},"referrers":{"direct":[3,1],"__proto__":[1,0],"2":[1,0]}}';
    const facts = parseDayFacts(text);
    expect(factDaysJson(facts)).toBe('{"referrers":{"2":[1,0],"direct":[3,1],"__proto__":[1,0]},"devices":{"bot":[1,1]}}');
    expect(factDaysJson(parseDayFacts(factDaysJson(facts)))).toBe(factDaysJson(facts));
  });

  test("leaves out what is not a count of a known breakdown, and never throws", () => {
    for (const text of ["", "nul", "[]", "null", '"x"', "{", '{"referrers":[1,2]}']) expect(factDaysJson(parseDayFacts(text))).toBe("{}");
    const facts = parseDayFacts(
      JSON.stringify({
        sizes: { big: [1, 0] },
        referrers: { ok: [2, 1], negative: [-1, 0], fraction: [1.5, 0], zero: [0, 0], moreBots: [1, 2], short: [1], text: ["1", "0"], huge: [2 ** 60, 0] },
      }),
    );
    expect(factDaysJson(facts)).toBe('{"referrers":{"ok":[2,1]}}');
  });

  test("names its values for the bound, 'other' not among them", () => {
    const facts = parseDayFacts('{"referrers":{"a.example":[1,0],"other":[5,0]}}');
    const named = namedIn(facts, "referrers");
    expect([named.count, named.has("a.example"), named.has("other"), named.has("b.example")]).toEqual([1, true, false, false]);
    expect(namedIn(facts, "countries").count).toBe(0);
    expect(namedIn(undefined, "referrers").count).toBe(0);
  });
});

describe("the move from the old layout", () => {
  test("goes on after the last link-day moved, looks once more from the start past the end, then rests an hour", async () => {
    let now = 0;
    const outcomes: FactDaysMoveStep[] = [
      "busy",
      { moved: 3, last: { code: "b", day: "2029-01-02" } },
      { moved: 0 },
      { moved: 1, last: { code: "a", day: "2029-01-01" } },
      { moved: 0 },
      { moved: 0 },
      { moved: 0 },
    ];
    const asked: LinkDay[] = [];
    const moving = new FactDaysMoving(
      async (after) => {
        asked.push(after);
        return outcomes.shift()!;
      },
      () => now,
    );
    const turns = [];
    for (let turn = 0; turn < 6; turn++) turns.push(await moving.turn());
    expect(turns).toEqual([0, 3, 0, 1, 0, 0]);
    // Busy is not "none left"; past the end (a row written behind) it starts over; two empty looks in a row, and it rests.
    expect(asked).toEqual([
      beforeEveryLinkDay,
      beforeEveryLinkDay,
      { code: "b", day: "2029-01-02" },
      beforeEveryLinkDay,
      { code: "a", day: "2029-01-01" },
      beforeEveryLinkDay,
    ]);
    now += 3_599_999;
    expect(await moving.turn()).toBe(0);
    expect(asked).toHaveLength(6);
    now += 1;
    await moving.turn();
    expect(asked).toHaveLength(7);
  });
});

const human: VisitFacts = { bot: false, referrer: "late.example", country: "DE", browser: "Firefox", os: "Linux", device: "desktop" };

/** A day in the old layout: (code, day, dimension, value, visits, bots). */
type OldRow = [string, string, string, string, number, number];
const oldRows: OldRow[] = [
  ["moved", "2029-05-01", "referrers", "direct", 3, 1],
  ["moved", "2029-05-01", "countries", "DE", 3, 1],
  ["moved", "2029-05-01", "browsers", "Firefox", 2, 0],
  ["moved", "2029-05-01", "browsers", "Googlebot", 1, 1],
  ["moved", "2029-05-01", "os", "Linux", 3, 1],
  ["moved", "2029-05-01", "devices", "desktop", 2, 0],
  ["moved", "2029-05-01", "devices", "bot", 1, 1],
  ["moved", "2029-05-02", "referrers", "news.example", 1, 0],
  ["moved", "2029-05-02", "devices", "bot", 1, 0],
  // A day that already names as many referrers as the bound allows.
  ...Array.from({ length: namedValuesPerDay }, (_, i): OldRow => ["bounded", "2029-05-03", "referrers", `r${i}.example`, 1, 0]),
];

/** Raw SQL beside the stores: the tables themselves, as a release before this one left them. */
interface Raw {
  insertOld(rows: OldRow[]): Promise<void>;
  count(table: "link_visit_facts_old" | "link_fact_days", code: string): Promise<number>;
  /** Runs a statement; rejects as the engine does. */
  run(statement: string): Promise<void>;
}

const engines = [
  {
    engine: "sqlite",
    async open(): Promise<{ db: Database; raw: Raw; close(): Promise<void> }> {
      const folder = mkdtempSync(join(tmpdir(), "fact-days-"));
      const path = join(folder, "links.db");
      const db = await openDatabase({ engine: "sqlite", path });
      const sqlite = new SqliteDatabase(path);
      sqlite.run("PRAGMA busy_timeout = 5000");
      return {
        db,
        raw: {
          async insertOld(rows) {
            const insert = sqlite.prepare("INSERT INTO link_visit_facts_old (code, day, dimension, value, visits, bots) VALUES (?, ?, ?, ?, ?, ?)");
            sqlite.transaction(() => {
              for (const row of rows) insert.run(...row);
            })();
          },
          async run(statement) {
            sqlite.run(statement);
          },
          async count(table, code) {
            return sqlite.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM ${table} WHERE code = ?`).get(code)!.n;
          },
        },
        async close() {
          sqlite.close();
          await db.close();
          rmSync(folder, { recursive: true, force: true });
        },
      };
    },
  },
  {
    engine: "postgres",
    async open(): Promise<{ db: Database; raw: Raw; close(): Promise<void> }> {
      const testDb: TestDatabase = await createTestDatabase("fact_days");
      const db = await openDatabase({ engine: "postgres", url: testDb.url });
      const sql = postgres(testDb.url, { max: 1, onnotice: () => {} });
      return {
        db,
        raw: {
          async insertOld(rows) {
            await sql`INSERT INTO link_visit_facts_old ${sql(rows.map(([code, day, dimension, value, visits, bots]) => ({ code, day, dimension, value, visits, bots })))}`;
          },
          async run(statement) {
            await sql.unsafe(statement);
          },
          async count(table, code) {
            const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM ${sql(table)} WHERE code = ${code}`;
            return row!.n;
          },
        },
        async close() {
          await sql.end();
          await db.close();
          await testDb.drop();
        },
      };
    },
  },
] as const;

const byValue = (facts: FactCount[]) => [...facts].sort((a, b) => `${a.dimension}/${a.value}`.localeCompare(`${b.dimension}/${b.value}`));

describe.each(engines)("days kept in the old layout, on $engine", ({ open }) => {
  let opened: Awaited<ReturnType<(typeof engines)[number]["open"]>>;
  let db: Database;

  beforeAll(async () => {
    opened = await open();
    db = opened.db;
    for (const code of ["moved", "bounded", "fresh", "many"]) {
      await db.links.insert({ code, longUrl: `https://example.com/${code}`, manageTokenHash: `hash-${code}`, createdAt: new Date("2029-01-01T00:00:00Z") });
    }
    await opened.raw.insertOld(oldRows);
  });
  afterAll(() => opened.close());

  /** What the reports read of the moved link and of every link. */
  const reads = async () => ({
    link: byValue(await db.visits.facts({ code: "moved" }, "2029-05-01", "2029-05-02")),
    bots: await db.visits.factDays({ code: "moved" }, "devices", "bot", "2029-05-01", "2029-05-02"),
    everyLink: byValue(await db.visits.facts({}, "2029-05-01", "2029-05-02")),
  });

  test("are read as they were, joined when a visit adds to their day, and moved until none are left", async () => {
    const before = await reads();
    expect(before.link).toContainEqual({ dimension: "browsers", value: "Googlebot", visits: 1, bots: 1 });
    expect(before.link).toContainEqual({ dimension: "referrers", value: "news.example", visits: 1, bots: 0 });
    expect(before.bots).toEqual([
      { day: "2029-05-01", visits: 1, bots: 1 },
      { day: "2029-05-02", visits: 1, bots: 0 },
    ]);
    expect(before.everyLink).toEqual(before.link);

    // A visit on the bounded day: its old rows join the day's one row, and their 100 names leave none for a new referrer.
    const visit = new LinkVisits();
    visit.add(human);
    await db.links.recordVisits(new Map([["bounded", visit]]), new Date("2029-05-03T12:00:00Z"));
    const referrers = (await db.visits.facts({ code: "bounded" }, "2029-05-03", "2029-05-03")).filter((fact) => fact.dimension === "referrers");
    expect(referrers).toHaveLength(namedValuesPerDay + 1);
    expect(referrers).toContainEqual({ dimension: "referrers", value: "other", visits: 1, bots: 0 });
    expect([await opened.raw.count("link_visit_facts_old", "bounded"), await opened.raw.count("link_fact_days", "bounded")]).toEqual([0, 1]);
    // The other link's days are not touched by it.
    expect(await opened.raw.count("link_visit_facts_old", "moved")).toBe(oldRows.filter(([code]) => code === "moved").length);

    // The summing job's turn moves the rest, and the reports read the same.
    await db.visits.sumVisitLog();
    expect([await opened.raw.count("link_visit_facts_old", "moved"), await opened.raw.count("link_fact_days", "moved")]).toEqual([0, 2]);
    expect(await reads()).toEqual(before);
  });

  test("a link's first visit of a day writes one row of breakdowns, not one per breakdown", async () => {
    const visit = new LinkVisits();
    visit.add(human);
    visit.add({ ...human, bot: true, referrer: "direct", device: "bot" });
    await db.links.recordVisits(new Map([["fresh", visit]]), new Date("2029-06-01T08:00:00Z"));
    expect(await db.visits.facts({ code: "fresh" }, "2029-06-01", "2029-06-01")).toHaveLength(7);
    expect([await opened.raw.count("link_visit_facts_old", "fresh"), await opened.raw.count("link_fact_days", "fresh")]).toEqual([0, 1]);
  });

  test("a step takes a bounded number of rows, each link-day whole, and goes on where it stopped", async () => {
    // More rows than a step takes, written behind where the last move stopped ("many" < "moved").
    const days = Math.ceil(factRowsMovedPerStep / 5) + 100;
    const rows = Array.from({ length: days }, (_, i) => new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10)).flatMap((day) =>
      (["referrers", "countries", "browsers", "os", "devices"] as const).map((dimension): OldRow => ["many", day, dimension, `${dimension}-1`, 2, 1]),
    );
    await opened.raw.insertOld(rows);
    const before = byValue(await db.visits.facts({ code: "many" }, "2020-01-01", "2099-01-01"));
    const left = [];
    for (let turn = 0; turn < 3; turn++) {
      await db.visits.sumVisitLog();
      left.push(await opened.raw.count("link_visit_facts_old", "many"));
    }
    // The first turn goes on after the last move and finds nothing; the next start over, a step of whole days each.
    expect(left).toEqual([rows.length, rows.length - factRowsMovedPerStep, 0]);
    expect(await opened.raw.count("link_fact_days", "many")).toBe(days);
    expect(byValue(await db.visits.facts({ code: "many" }, "2020-01-01", "2099-01-01"))).toEqual(before);
  });

  test("the old layout's name is gone: a replica of the version before cannot sum into it", async () => {
    await expect(
      opened.raw.run("INSERT INTO link_visit_facts (code, day, dimension, value, visits) VALUES ('moved', '2029-05-01', 'os', 'Linux', 1)"),
    ).rejects.toThrow(/link_visit_facts/);
  });
});
