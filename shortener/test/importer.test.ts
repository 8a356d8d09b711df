import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { silentLogger } from "@linkgeo/shared";
import { manageTokenMatches, newManageToken } from "../src/auth/manage-token.ts";
import { LinkTargets } from "../src/links/link-targets.ts";
import type { Database } from "../src/storage/open-database.ts";
import { contentKey, derivedCode } from "../src/transfer/derived-code.ts";
import type { ImportRecord, ImportRow } from "../src/transfer/import-record.ts";
import { Importer, type ImportEvent, type ImportOptions } from "../src/transfer/importer.ts";
import { openRawDatabase, type RawDatabase } from "./support/raw-database.ts";
import { storeEngines } from "./support/store-engines.ts";

const now = new Date("2026-12-01T00:00:00.000Z");
const t0 = new Date("2026-11-01T00:00:00.000Z");

async function* rowsOf(rows: ImportRow[]): AsyncGenerator<ImportRow> {
  yield* rows;
}

describe.each(storeEngines)("the importer on $engine", ({ open }) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  let importer: Importer;
  const inserted: string[] = [];

  beforeAll(async () => {
    ({ db, cleanup } = await open());
    importer = new Importer({
      store: db.links,
      targets: new LinkTargets({ blockPrivate: false, blockedDomains: ["blocked.example"], ownAddresses: [] }),
      clock: () => now,
      onInserted: async (codes) => {
        inserted.push(...codes);
      },
    });
  });
  afterAll(async () => {
    await db.close();
    await cleanup();
  });

  async function run(rows: ImportRow[], options: Partial<ImportOptions> = {}): Promise<ImportEvent[]> {
    const events: ImportEvent[] = [];
    for await (const event of importer.run(rowsOf(rows), { dryRun: false, requestHosts: ["short.example"], ...options })) events.push(event);
    return events;
  }

  test("stores each good row with its count and dates, and reports every other with its line and why", async () => {
    const events = await run(
      [
        { line: 2, longUrl: "https://example.com/one", code: "imp-one", accessCount: 12, createdAt: t0, tags: ["A", "b"], title: "One" },
        { line: 3, problem: "a quoted field is never closed" },
        { line: 4, longUrl: "https://example.com/reserved", code: "Shorten" },
        { line: 5, longUrl: "https://example.com/short", code: "ab" },
        { line: 6, longUrl: "ftp://example.com/file", code: "imp-ftp" },
        { line: 7, longUrl: "https://short.example/loop", code: "imp-loop" },
        { line: 8, longUrl: "https://www.blocked.example/", code: "imp-blocked" },
        { line: 9, longUrl: "https://example.com/locked", code: "imp-locked", passwordProtected: true },
        { line: 10, longUrl: "https://example.com/dup", code: "imp-one" },
        { line: 11, longUrl: "https://example.com/tags", code: "imp-tags", tags: ["no spaces please"] },
        { line: 12, longUrl: "https://example.com/rule", code: "imp-rule", rules: [{ when: {}, url: "https://example.com/x" }] },
      ],
      { batchSize: 3 },
    );
    expect(events).toEqual([
      { outcome: { line: 3, status: "problem", reason: "a quoted field is never closed" } },
      { outcome: { line: 4, status: "skipped", short_url: "Shorten", reason: 'short_url "Shorten" is a reserved word' } },
      { outcome: { line: 5, status: "skipped", short_url: "ab", reason: "short_url must be 3 to 32 characters of A-Z, a-z, 0-9, _ and -" } },
      { outcome: { line: 6, status: "problem", reason: "long_url must be an http or https URL" } },
      { outcome: { line: 7, status: "problem", reason: "long_url must not point at this service" } },
      { outcome: { line: 8, status: "problem", reason: "long_url points at a blocked domain" } },
      {
        outcome: {
          line: 9,
          status: "skipped",
          short_url: "imp-locked",
          reason: "the link has a password, which no export carries: create it again with one",
        },
      },
      // Lines 2, 10 and 11 make a batch of three: written before line 12 is read.
      { outcome: { line: 10, status: "skipped", short_url: "imp-one", reason: 'short_url "imp-one" is taken' } },
      { outcome: { line: 12, status: "problem", reason: "rules.0.when must name at least one condition" } },
      { summary: { lines: 12, imported: 2, skipped: 4, problems: 5, dry_run: false, unknown_domains: [] } },
    ]);
    expect(await db.links.find("imp-one")).toMatchObject({
      longUrl: "https://example.com/one",
      accessCount: 12,
      createdAt: t0,
      updatedAt: t0,
      lastAccessedAt: null,
      tags: ["a", "b"],
      title: "One",
      passwordHash: null,
    });
    expect(inserted).toContain("imp-one");
    // A tag of another tool's that ours would refuse is made one of ours, not the reason the link is lost.
    expect((await db.links.find("imp-tags"))?.tags).toEqual(["no-spaces-please"]);
  });

  test("keeps a tag that is already one of ours as it is, a hyphen at either end included", async () => {
    const events = await run([{ line: 2, longUrl: "https://example.com/edge-tags", code: "imp-edge-tags", tags: ["-2-3", "q4-", "-", "Spring Sale -"] }]);
    expect(events).toEqual([{ summary: { lines: 2, imported: 1, skipped: 0, problems: 0, dry_run: false, unknown_domains: [] } }]);
    expect((await db.links.find("imp-edge-tags"))?.tags).toEqual(["-2-3", "q4-", "-", "spring-sale"]);
  });

  test("a second run of the same rows changes nothing: codes and rows without one are skipped, not doubled", async () => {
    const rows: ImportRow[] = [
      { line: 2, longUrl: "https://example.com/rerun-coded", code: "imp-rerun" },
      { line: 3, longUrl: "https://example.com/rerun-plain", title: "plain" },
      { line: 4, longUrl: "https://example.com/rerun-plain", title: "plain" },
      { line: 5, longUrl: "https://example.com/rerun-plain", title: "another title" },
    ];
    const first = await run(rows);
    expect(first.at(-1)).toEqual({ summary: { lines: 5, imported: 3, skipped: 1, problems: 0, dry_run: false, unknown_domains: [] } });
    const plainCode = derivedCode(contentKey({ longUrl: "https://example.com/rerun-plain", title: "plain", tags: [] }, undefined), 0);
    expect(first[0]).toEqual({
      outcome: { line: 4, status: "skipped", short_url: plainCode, reason: "already imported (the same link, without a code in the file)" },
    });
    const before = await db.links.exportPage(null, 10_000);

    const second = await run(rows);
    expect(second.at(-1)).toEqual({ summary: { lines: 5, imported: 0, skipped: 4, problems: 0, dry_run: false, unknown_domains: [] } });
    expect(await db.links.exportPage(null, 10_000)).toEqual(before);
  });

  test("no manage token manages an imported link: its stored hash is not a token's, and a run's are unique and in order", async () => {
    const codes = ["imp-token-a", "imp-token-b", "imp-token-c", "imp-token-d"];
    await run(
      codes.map((code, i) => ({ line: i + 2, longUrl: `https://example.com/${code}`, code })),
      { batchSize: 2 },
    );
    const hashes = (await db.links.findMany(codes)).sort((a, b) => a.code.localeCompare(b.code)).map((link) => link.manageTokenHash);
    const { token, hash } = newManageToken();
    expect(hashes.every((stored) => stored.length !== hash.length && !manageTokenMatches(token, stored))).toBe(true);
    expect(new Set(hashes).size).toBe(4);
    expect([...hashes].sort()).toEqual(hashes);
  });

  test("a derived code another link holds is derived again", async () => {
    const key = contentKey({ longUrl: "https://example.com/collides", title: null, tags: [] }, undefined);
    await db.links.insertImported([
      {
        code: derivedCode(key, 0),
        longUrl: "https://other.example/",
        manageTokenHash: "h-collide",
        createdAt: t0,
        updatedAt: t0,
        accessCount: 0,
        lastAccessedAt: null,
      },
    ]);
    expect((await run([{ line: 2, longUrl: "https://example.com/collides" }])).at(-1)).toMatchObject({ summary: { imported: 1 } });
    expect((await db.links.find(derivedCode(key, 1)))?.longUrl).toBe("https://example.com/collides");
    expect((await run([{ line: 2, longUrl: "https://example.com/collides" }])).at(-1)).toMatchObject({ summary: { imported: 0, skipped: 1 } });
  });

  test("a dry run reports what a run would, and stores nothing", async () => {
    const rows: ImportRow[] = [
      { line: 2, longUrl: "https://example.com/dry", code: "imp-dry" },
      { line: 3, longUrl: "https://example.com/dry-again", code: "imp-dry" },
      { line: 4, longUrl: "https://example.com/taken", code: "imp-one" },
    ];
    expect(await run(rows, { dryRun: true })).toEqual([
      { outcome: { line: 3, status: "skipped", short_url: "imp-dry", reason: 'short_url "imp-dry" is taken' } },
      { outcome: { line: 4, status: "skipped", short_url: "imp-one", reason: 'short_url "imp-one" is taken' } },
      { summary: { lines: 4, imported: 1, skipped: 2, problems: 0, dry_run: true, unknown_domains: [] } },
    ]);
    expect(await db.links.find("imp-dry")).toBeNull();
  });

  test("a date or count an engine cannot store is its row's problem, named with its line; the rows around it are stored", async () => {
    const inYear = (year: number) => new Date(new Date("2026-06-01T12:00:00.000Z").setUTCFullYear(year));
    const bad: Array<[Partial<ImportRecord>, string]> = [
      [{ createdAt: inYear(0) }, "created_at must be from 1970 to 9998"],
      [{ createdAt: inYear(-1) }, "created_at must be from 1970 to 9998"],
      [{ createdAt: inYear(10_000) }, "created_at must be from 1970 to 9998"],
      [{ createdAt: new Date("1969-12-31T23:59:59.999Z") }, "created_at must be from 1970 to 9998"],
      [{ createdAt: new Date(Number.NaN) }, "created_at must be from 1970 to 9998"],
      [{ updatedAt: inYear(0) }, "updated_at must be from 1970 to 9998"],
      [{ lastAccessedAt: inYear(10_000) }, "last_accessed_at must be from 1970 to 9998"],
      [{ expiresAt: inYear(0) }, "expires_at must be from 1970 to 9998"],
      [{ expiresAt: new Date(Number.NaN) }, "expires_at must be from 1970 to 9998"],
      [{ accessCount: Number.MAX_SAFE_INTEGER + 2 }, `access_count must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`],
      [{ accessCount: -1 }, `access_count must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`],
      [{ accessCount: 1.5 }, `access_count must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`],
    ];
    // A good row before each bad one, and one after the last; the edges of what every engine stores are good.
    const first = new Date("1970-01-01T00:00:00.000Z");
    const last = new Date("9998-12-31T23:59:59.999Z");
    const good = (n: number): ImportRecord => ({
      line: 0,
      longUrl: `https://example.com/around/${n}`,
      code: `imp-around-${n}`,
      createdAt: first,
      lastAccessedAt: last,
      accessCount: Number.MAX_SAFE_INTEGER,
    });
    const rows: ImportRow[] = [
      ...bad.flatMap(([fields], n) => [good(n), { line: 0, longUrl: `https://example.com/bad/${n}`, code: `imp-bad-${n}`, ...fields }]),
      good(bad.length),
    ].map((row, index) => ({ ...row, line: index + 2 }));

    const events = await run(rows, { batchSize: 4 });

    expect(events).toEqual([
      ...bad.map(([, reason], n) => ({ outcome: { line: 2 * n + 3, status: "problem" as const, reason } })),
      { summary: { lines: rows.length + 1, imported: bad.length + 1, skipped: 0, problems: bad.length, dry_run: false, unknown_domains: [] } },
    ]);
    const stored = await db.links.findMany(Array.from({ length: bad.length + 1 }, (_, n) => `imp-around-${n}`));
    expect(stored.map(({ createdAt, updatedAt, lastAccessedAt, accessCount }) => ({ createdAt, updatedAt, lastAccessedAt, accessCount }))).toEqual(
      Array.from({ length: bad.length + 1 }, () => ({ createdAt: first, updatedAt: first, lastAccessedAt: last, accessCount: Number.MAX_SAFE_INTEGER })),
    );
    expect(await db.links.findMany(bad.map((_, n) => `imp-bad-${n}`))).toEqual([]);
  });

  test("a failure after the insert (telling the cache) stops the import; it is no refusal, and no row is called taken", async () => {
    const failing = new Importer({
      store: db.links,
      targets: new LinkTargets({ blockPrivate: false, blockedDomains: [], ownAddresses: [] }),
      clock: () => now,
      onInserted: async () => {
        throw new Error("the cache is out of reach");
      },
    });
    const events: ImportEvent[] = [];
    const rows: ImportRow[] = [{ line: 2, longUrl: "https://example.com/told", code: "imp-told" }];
    const run = async () => {
      for await (const event of failing.run(rowsOf(rows), { dryRun: false, requestHosts: [] })) events.push(event);
    };
    await expect(run()).rejects.toThrow("the cache is out of reach");
    expect(events).toEqual([]);
    expect((await db.links.find("imp-told"))?.longUrl).toBe("https://example.com/told");
  });

  test("tells its progress every so many lines", async () => {
    const rows: ImportRow[] = Array.from({ length: 5 }, (_, i) => ({ line: i + 2, longUrl: `https://example.com/progress/${i}`, code: `imp-progress-${i}` }));
    const events = await run(rows, { progressEvery: 2, batchSize: 2 });
    expect(events).toEqual([
      { progress: { lines: 2, imported: 0, skipped: 0, problems: 0 } },
      { progress: { lines: 4, imported: 2, skipped: 0, problems: 0 } },
      { progress: { lines: 6, imported: 4, skipped: 0, problems: 0 } },
      { summary: { lines: 6, imported: 5, skipped: 0, problems: 0, dry_run: false, unknown_domains: [] } },
    ]);
  });
});

// What the importer's checks let through every engine stores; should the database refuse a row anyway (here a trigger
// stands for a value the checks missed), its batch's transaction stores nothing, and the importer stores the batch again
// row by row.
describe.each(["sqlite", "postgres"] as const)("the importer on %s, when the database refuses a row", (engine) => {
  let raw: RawDatabase;
  const refusedCode = { sqlite: "SQLITE_CONSTRAINT_TRIGGER", postgres: "23514" }[engine];

  beforeAll(async () => {
    raw = await openRawDatabase(engine);
    if (engine === "sqlite") {
      await raw.query(
        "CREATE TRIGGER refuse_row BEFORE INSERT ON links WHEN NEW.long_url LIKE '%/refused%' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END",
      );
    } else {
      await raw.query(
        "CREATE FUNCTION refuse_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.long_url LIKE '%/refused%' THEN RAISE EXCEPTION 'refused by the test' USING ERRCODE = '23514'; END IF; RETURN NEW; END $$",
      );
      await raw.query("CREATE TRIGGER refuse_row BEFORE INSERT ON links FOR EACH ROW EXECUTE FUNCTION refuse_row()");
    }
  });
  afterAll(async () => {
    await raw[Symbol.asyncDispose]();
  });

  test("only the refused row is reported, with its line; the rest of its batch is stored and the summary sent", async () => {
    const inserted: string[] = [];
    const warnings: unknown[] = [];
    const importer = new Importer({
      store: raw.db.links,
      targets: new LinkTargets({ blockPrivate: false, blockedDomains: [], ownAddresses: [] }),
      clock: () => now,
      log: { ...silentLogger, warn: (message, fields) => warnings.push({ message, rows: fields?.rows }) },
      onInserted: async (codes) => {
        inserted.push(...codes);
      },
    });
    const rows: ImportRow[] = [
      { line: 2, longUrl: "https://example.com/kept/1", code: "imp-kept-1" },
      { line: 3, longUrl: "https://example.com/refused", code: "imp-refused" },
      { line: 4, longUrl: "https://example.com/kept/2" },
      { line: 5, longUrl: "https://example.com/kept/1-again", code: "imp-kept-1" },
      { line: 6, longUrl: "https://example.com/kept/3", code: "imp-kept-3" },
      { line: 7, longUrl: "https://example.com/refused/again" },
      { line: 8, longUrl: "https://example.com/kept/4", code: "imp-kept-4" },
    ];
    const events: ImportEvent[] = [];
    for await (const event of importer.run(rowsOf(rows), { dryRun: false, requestHosts: [], batchSize: 4 })) events.push(event);

    const refused = `the database refused to store it (${refusedCode})`;
    expect(events).toEqual([
      { outcome: { line: 3, status: "problem", reason: refused } },
      { outcome: { line: 5, status: "skipped", short_url: "imp-kept-1", reason: 'short_url "imp-kept-1" is taken' } },
      { outcome: { line: 7, status: "problem", reason: refused } },
      { summary: { lines: 8, imported: 4, skipped: 1, problems: 2, dry_run: false, unknown_domains: [] } },
    ]);
    const kept = await raw.db.links.exportPage(null, 100);
    expect(kept.map((link) => link.longUrl).sort()).toEqual([1, 2, 3, 4].map((n) => `https://example.com/kept/${n}`));
    expect(inserted.sort()).toEqual(kept.map((link) => link.code).sort());
    expect(warnings).toEqual([
      { message: "an import batch was refused; storing it row by row", rows: 4 },
      { message: "an import batch was refused; storing it row by row", rows: 3 },
    ]);
  });
});
