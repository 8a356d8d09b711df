import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database as SqliteDatabase } from "bun:sqlite";
import { createTestDatabase, type TestDatabase } from "@linkgeo/testing";
import type { Logger } from "drizzle-orm";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { drizzle as drizzleSqlite } from "drizzle-orm/bun-sqlite";
import postgres from "postgres";
import type { LinkState } from "../src/links/destination.ts";
import { linkOrders } from "../src/links/link-order.ts";
import type { LinkQuery, LinkStore } from "../src/links/link-store.ts";
import { openDatabase, openSqliteDatabase } from "../src/storage/open-database.ts";
import { PostgresLinkStore } from "../src/storage/postgres/postgres-link-store.ts";
import { settleVisitLog } from "../src/storage/postgres/postgres-visit-log.ts";
import { SqliteLinkStore } from "../src/storage/sqlite/sqlite-link-store.ts";
import { SqliteVisitLog } from "../src/storage/sqlite/sqlite-visit-log.ts";

// What the planner does with the statements a filtered listing really runs (a store on a client
// that logs them), on 20,000 links with the planner's statistics: a rare tag or state is read
// through its index, never by a scan of every link. The probe and the count's sample read at most
// the first 5,000 links in order (LIMIT); they are left out, as is the table's size.

const linkCount = 20_000;
const now = new Date("2026-11-26T12:00:00.000Z");
// Every other link has the common tag (and so have the 20 expired ones); 5 the rare one; 20 are used up; 500 have a search's word.
const shape = {
  common: "n % 2 = 0",
  rare: "n % 4000 = 7",
  expired: "n % 1000 = 4",
  exhausted: "n % 1000 = 5",
  word: "n % 40 = 0",
};

interface Explained {
  store: LinkStore;
  /** The plans of the statements the store ran since the last call, but the probe's, the sample's and the table size's. */
  plans(): Promise<string[]>;
  close(): Promise<void>;
}

const fillSql = (random: string) => `
  SELECT 'c' || n || 'x', 'https://example.com/' || CASE WHEN ${shape.word} THEN 'needle/' ELSE 'hay/' END || n, 'token' || n,
    CASE WHEN ${shape.exhausted} THEN 3 ELSE n % 7 END,
    ${random},
    CASE WHEN ${shape.expired} THEN -1 END,
    CASE WHEN ${shape.exhausted} THEN 3 END,
    CASE WHEN ${shape.common} AND ${shape.rare} THEN 'both' WHEN ${shape.common} THEN 'common' WHEN ${shape.rare} THEN 'rare' ELSE 'none' END`;

async function sqliteExplained(): Promise<Explained> {
  const sqlite = new SqliteDatabase(":memory:", { strict: true });
  openSqliteDatabase(sqlite);
  const day = 86_400_000;
  sqlite.exec(`
    WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${linkCount}),
    rows(code, long_url, token, access_count, created_at, expiry, cap, tagged) AS (${fillSql(`${now.getTime()} - n * 1000`)} FROM seq)
    INSERT INTO links (code, long_url, manage_token_hash, access_count, sorted_access_count, created_at, updated_at, expires_at, max_visits, tags)
    SELECT code, long_url, token, access_count, access_count, created_at, created_at, CASE WHEN expiry IS NULL THEN NULL ELSE ${now.getTime() - day} END, cap,
      CASE tagged WHEN 'both' THEN '["common","rare"]' WHEN 'common' THEN '["common"]' WHEN 'rare' THEN '["rare"]' ELSE '[]' END
    FROM rows;
    ANALYZE;`);
  const statements: Array<{ query: string; params: unknown[] }> = [];
  const logger: Logger = { logQuery: (query, params) => statements.push({ query, params }) };
  return {
    store: new SqliteLinkStore(drizzleSqlite({ client: sqlite, logger }), new SqliteVisitLog(sqlite)),
    plans: async () =>
      statements
        .splice(0)
        .filter(({ query }) => !/AS "?found"?|AS "?sampled"?/i.test(query) && !/^select count\(\*\) from "links"$/i.test(query))
        .map(({ query, params }) =>
          sqlite
            .query<{ detail: string }, never[]>(`EXPLAIN QUERY PLAN ${query}`)
            .all(...(params as never[]))
            .map((row) => row.detail)
            .join("\n"),
        ),
    close: async () => sqlite.close(),
  };
}

async function postgresExplained(): Promise<Explained> {
  const testDb: TestDatabase = await createTestDatabase("filter_plans");
  await (await openDatabase({ engine: "postgres", url: testDb.url })).close();
  const client = postgres(testDb.url, { max: 2, onnotice: () => {} });
  await client.unsafe(`
    INSERT INTO links (code, long_url, manage_token_hash, access_count, sorted_access_count, created_at, updated_at, expires_at, max_visits, tags)
    SELECT code, long_url, token, access_count, access_count, created_at, created_at, CASE WHEN expiry IS NULL THEN NULL ELSE '${now.toISOString()}'::timestamptz - interval '1 day' END, cap,
      CASE tagged WHEN 'both' THEN ARRAY['common', 'rare'] WHEN 'common' THEN ARRAY['common'] WHEN 'rare' THEN ARRAY['rare'] ELSE '{}' END
    FROM (${fillSql(`'${now.toISOString()}'::timestamptz - n * interval '1 second'`)} FROM generate_series(1, ${linkCount}) AS n)
      AS rows(code, long_url, token, access_count, created_at, expiry, cap, tagged)`);
  await client.unsafe("ANALYZE");
  const statements: Array<{ query: string; params: unknown[] }> = [];
  const logger: Logger = { logQuery: (query, params) => statements.push({ query, params }) };
  return {
    store: new PostgresLinkStore(drizzlePostgres(client, { logger }), client, async () => {
      await settleVisitLog(client);
    }),
    plans: async () => {
      const plans: string[] = [];
      for (const { query, params } of statements.splice(0)) {
        if (/AS "?found"?|AS "?sampled"?/i.test(query)) continue;
        const rows = await client.unsafe(`EXPLAIN ${query}`, params as never[]);
        plans.push(rows.map((row) => row["QUERY PLAN"]).join("\n"));
      }
      return plans;
    },
    close: async () => {
      await client.end();
      await testDb.drop();
    },
  };
}

const fullScan = {
  sqlite: /^SCAN links$|SCAN links USING INDEX links_(created_at|sorted_access_count|sorted_last_accessed_at)_idx/m,
  postgres: /Seq Scan on links\b/,
};

describe.each([
  ["sqlite", sqliteExplained],
  ["postgres", postgresExplained],
] as const)("the listing's filters on %s", (engine, open) => {
  let explained: Explained;
  beforeAll(async () => {
    explained = await open();
  });
  afterAll(async () => {
    await explained?.close();
  });

  const plansOf = async (query: Omit<LinkQuery, "offset" | "limit" | "state"> & { state?: LinkState }) => {
    await explained.plans();
    const page = await explained.store.list({ offset: 0, limit: 20, ...query, state: query.state && { is: query.state, at: now } });
    return { page, plans: await explained.plans() };
  };

  const rareCases = linkOrders.flatMap((order) => [
    { order, name: "a rare tag", query: { tag: "rare" }, index: "link_tags_tag_idx", matches: 5 },
    { order, name: "a rare tag with a common search", query: { tag: "rare", search: "example" }, index: "link_tags_tag_idx", matches: 5 },
    { order, name: "a rare tag with a common tag's state", query: { tag: "rare", state: "active" as const }, index: "link_tags_tag_idx", matches: 5 },
    { order, name: "expired", query: { state: "expired" as const }, index: "links_expires_at_idx", matches: 20 },
    { order, name: "exhausted", query: { state: "exhausted" as const }, index: "links_exhausted_idx", matches: 20 },
    { order, name: "a common tag, expired", query: { tag: "common", state: "expired" as const }, index: "links_expires_at_idx", matches: 20 },
  ]);

  test.each(rareCases)("$name, $order: read through $index, no scan of every link", async ({ order, query, index, matches }) => {
    const { page, plans } = await plansOf({ ...query, order });
    expect({ links: page.links.length, count: page.count }).toEqual({ links: Math.min(20, matches), count: matches });
    expect(plans.length).toBeGreaterThan(0);
    expect(plans.filter((plan) => fullScan[engine].test(plan))).toEqual([]);
    expect(plans.some((plan) => plan.includes(index))).toBe(true);
  });
});
