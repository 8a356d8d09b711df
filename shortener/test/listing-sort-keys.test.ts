import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestDatabase, type TestDatabase } from "@linkgeo/testing";
import postgres, { type Sql } from "postgres";
import { openDatabase, type Database } from "../src/storage/open-database.ts";
import { LinkVisits } from "../src/visits/link-visits.ts";

/**
 * The listing's sort keys on Postgres (migration 0015): a visit to a link
 * visited within the last second raises the counts only, and the visit
 * log's summing step copies them to the keys; a visit to a quiet link sets
 * them itself, and the step leaves that row alone. A step skips a link a
 * batch holds rather than wait for it, and leaves it in the log for a later
 * step, so no key stays behind its count.
 */
describe("the listing's sort keys on postgres", () => {
  let testDb: TestDatabase;
  let db: Database;
  let sql: Sql;
  let seq = 0;

  beforeAll(async () => {
    testDb = await createTestDatabase("sort_keys");
    db = await openDatabase({ engine: "postgres", url: testDb.url });
    sql = postgres(testDb.url, { max: 2, onnotice: () => {} });
  });
  afterAll(async () => {
    await sql?.end();
    await db?.close();
    await testDb?.drop();
  });

  async function newLink(): Promise<string> {
    const code = `sk${Date.now().toString(36)}${++seq}`;
    await db.links.insert({ code, longUrl: `https://example.com/${code}`, manageTokenHash: `hash-${code}`, createdAt: new Date() });
    return code;
  }

  const visit = (code: string, times: number, at: Date) => db.links.recordVisits(new Map([[code, LinkVisits.counting(times)]]), at);

  /** A new link visited `times` times in two batches at one moment: the first sets the keys (the link was quiet), the second leaves them behind. */
  async function visited(times: number): Promise<string> {
    const code = await newLink();
    const at = new Date();
    await visit(code, 1, at);
    await visit(code, times - 1, at);
    return code;
  }

  const keysOf = async (code: string) =>
    (
      await sql<Array<{ count: number; sorted: number; logged: number }>>`
        SELECT access_count::int AS count, sorted_access_count::int AS sorted,
          (SELECT count(*) FROM link_visit_log WHERE link_visit_log.code = links.code)::int AS logged
        FROM links WHERE code = ${code}`
    )[0];
  /** The transaction that wrote the row's current version. */
  const rowVersionOf = async (code: string) =>
    (await sql<Array<{ version: string }>>`SELECT xmin::text AS version FROM links WHERE code = ${code}`)[0]?.version;

  test("a visit within a second of the last leaves the key alone; a summing step copies the count to it", async () => {
    await db.visits.sumVisitLog();
    const code = await visited(3);
    expect(await keysOf(code)).toEqual({ count: 3, sorted: 1, logged: 2 });
    expect(await db.visits.sumVisitLog()).toBe(2);
    expect(await keysOf(code)).toEqual({ count: 3, sorted: 3, logged: 0 });
  });

  test("a visit to a link unvisited for a second sets its keys itself, and the summing step writes no other version of the row", async () => {
    await db.visits.sumVisitLog();
    const code = await newLink();
    const first = new Date(Date.now() - 5_000);
    await visit(code, 2, first);
    expect(await keysOf(code)).toEqual({ count: 2, sorted: 2, logged: 1 });
    const counted = await rowVersionOf(code);
    expect(await db.visits.sumVisitLog()).toBe(1);
    expect(await keysOf(code)).toEqual({ count: 2, sorted: 2, logged: 0 });
    expect(await rowVersionOf(code)).toBe(counted);

    await visit(code, 1, new Date(first.getTime() + 999));
    expect(await keysOf(code)).toEqual({ count: 3, sorted: 2, logged: 1 });
    await visit(code, 1, new Date(first.getTime() + 2_100));
    expect(await keysOf(code)).toEqual({ count: 4, sorted: 4, logged: 2 });
  });

  test("a batch dated earlier (a retry, a replica's slower clock) neither dates the visit back nor makes a busy link look quiet", async () => {
    const code = await newLink();
    const at = new Date(Date.now() - 10_000);
    const later = (ms: number) => new Date(at.getTime() + ms);
    await visit(code, 1, later(3_000));
    await visit(code, 1, later(500));
    const [stored] = await sql<Array<{ last: Date }>>`SELECT last_accessed_at AS last FROM links WHERE code = ${code}`;
    expect(stored?.last.getTime()).toBe(later(3_000).getTime());
    await visit(code, 1, later(3_500));
    expect(await keysOf(code)).toEqual({ count: 3, sorted: 1, logged: 3 });
  });

  test("a capped link's count key follows every visit, within the second too", async () => {
    const code = `skc${Date.now().toString(36)}${++seq}`;
    await db.links.insert({ code, longUrl: `https://example.com/${code}`, manageTokenHash: `hash-${code}`, createdAt: new Date(), maxVisits: 10 });
    const at = new Date();
    await visit(code, 1, at);
    await visit(code, 2, at);
    expect(await keysOf(code)).toEqual({ count: 3, sorted: 3, logged: 2 });
  });

  test("a link a batch holds is skipped, logged again, and refreshed by the step after it is free", async () => {
    await db.visits.sumVisitLog();
    const [held, free] = [await visited(2), await visited(2)];
    const holding = Promise.withResolvers<void>();
    const release = Promise.withResolvers<void>();
    // A batch in flight: the link's row locked as a batch locks it, until released.
    const batch = sql.begin(async (tx) => {
      await tx`SELECT 1 FROM links WHERE code = ${held} FOR NO KEY UPDATE`;
      holding.resolve();
      await release.promise;
    });
    await holding.promise;
    // Not waited for: the step ends while the row is still held.
    expect(await db.visits.sumVisitLog()).toBeGreaterThanOrEqual(4);
    expect(await keysOf(held)).toEqual({ count: 2, sorted: 1, logged: 1 });
    expect(await keysOf(free)).toEqual({ count: 2, sorted: 2, logged: 0 });
    release.resolve();
    await batch;
    await db.visits.sumVisitLog();
    expect(await keysOf(held)).toEqual({ count: 2, sorted: 2, logged: 0 });
  });

  test("a sorted page settles the log first: its order is that of the counts it shows", async () => {
    // More visits than any link before them; their keys still 1 until the page settles the log.
    const [four, five] = [await visited(4), await visited(5)];
    const page = await db.links.list({ offset: 0, limit: 2, order: "most_visited", search: "sk" });
    expect(page.links.map((link) => [link.code, link.accessCount])).toEqual([
      [five, 5],
      [four, 4],
    ]);
  });
});
