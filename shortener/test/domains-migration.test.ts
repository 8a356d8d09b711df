import { afterAll, describe, expect, test } from "bun:test";
import { Database as SqliteDatabase } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, readJson } from "@linkgeo/testing";
import { drizzle as drizzleSqlite } from "drizzle-orm/bun-sqlite";
import { migrate as migrateSqlite } from "drizzle-orm/bun-sqlite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { openDatabase, type Database } from "../src/storage/open-database.ts";
import { startTestShortener } from "./support/test-shortener.ts";
import { migrationsBefore } from "./support/migrations-before.ts";
import { VisitClassifier } from "../src/visits/visit-classifier.ts";

/**
 * The upgrade to domains (0018-0019 on Postgres, 0016-0017 on SQLite) on a
 * database the release before wrote: a link made then keeps its URL, its
 * count and its visits, on the default domain, and its code may be taken
 * again on an added domain as another link. No row of the link's is
 * rewritten: its key is its code (links/link-key.ts). The visits that led
 * nowhere counted before are the default domain's.
 */
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const now = new Date("2026-12-06T12:00:00.000Z");
const hourAgo = new Date("2026-12-06T11:00:00.000Z");

/** What the release before holds of one link: its row (4 visits counted) and its hour of visits, 3 humans and a bot. */
const oldLink = { code: "before", longUrl: "https://example.com/made-before", hash: "a".repeat(64) };

async function afterUpgrade(db: Database): Promise<void> {
  const visitClassifier = new VisitClassifier({ countries: { countryOf: () => "unknown" } });
  await using api = await startTestShortener({ database: db, clock: () => now, publicBaseUrl: new URL("https://sho.rt"), visitClassifier });
  const admin = { authorization: `Bearer ${api.adminToken()}` };
  expect(await readJson(await api.request("GET", "/shorten/before/"))).toMatchObject({
    short_url: "before",
    domain: "sho.rt",
    link: "https://sho.rt/before/",
    long_url: oldLink.longUrl,
    access_count: 4,
  });
  const report = await readJson(await api.request("GET", "/shorten/before/visits/?from=2026-12-06T00:00:00Z", { headers: admin }));
  expect(report.totals).toEqual({ visits: 4, humans: 3, bots: 1 });
  const orphans = await readJson(await api.request("GET", "/admin/visits/orphans/?from=2026-12-06&domain=sho.rt", { headers: admin }));
  expect([orphans.totals, orphans.top.referrers]).toEqual([{ visits: 3, humans: 2, bots: 1 }, [{ value: "news.example", visits: 3 }]]);

  const redirect = await api.request("GET", "/before");
  expect([redirect.status, redirect.headers.get("location")]).toEqual([302, oldLink.longUrl]);
  expect((await readJson(await api.request("GET", "/shorten/before/stats/"))).access_count).toBe(5);

  await api.request("POST", "/admin/domains", { json: { host: "go.brand.test" }, headers: admin });
  const again = await api.request("POST", "/shorten/", { json: { long_url: "https://brand.example/before", short_url: "before", domain: "go.brand.test" } });
  expect(again.status).toBe(201);
  expect((await readJson(await api.request("GET", "/shorten/before/stats/"))).access_count).toBe(5);
}

describe("a link made before domains", () => {
  test("on SQLite keeps its URL, count and visits", async () => {
    const folder = mkdtempSync(join(tmpdir(), "domains-migration-"));
    folders.push(folder);
    const path = join(folder, "links.db");
    const old = new SqliteDatabase(path);
    migrateSqlite(drizzleSqlite(old), { migrationsFolder: migrationsBefore("sqlite", "0016_domains", folders) });
    old
      .query("INSERT INTO links (code, long_url, manage_token_hash, access_count, created_at, updated_at) VALUES (?, ?, ?, 4, ?, ?)")
      .run(oldLink.code, oldLink.longUrl, oldLink.hash, hourAgo.getTime(), hourAgo.getTime());
    old.query("INSERT INTO link_visit_buckets (code, starts_at, hours, humans, bots) VALUES (?, ?, 1, 3, 1)").run(oldLink.code, hourAgo.getTime());
    old.query("INSERT INTO orphan_visits (day, kind, referrer, humans, bots) VALUES ('2026-12-06', 'unknown', 'news.example', 2, 1)").run();
    old.close();

    const db = await openDatabase({ engine: "sqlite", path });
    try {
      await afterUpgrade(db);
    } finally {
      await db.close();
    }
  });

  test("on Postgres keeps its URL, count and visits", async () => {
    const testDb = await createTestDatabase("domains_migration");
    const client = postgres(testDb.url, { max: 1, onnotice: () => {} });
    try {
      await migratePostgres(drizzlePostgres(client), { migrationsFolder: migrationsBefore("postgres", "0018_domains", folders) });
      await client`INSERT INTO links (code, long_url, manage_token_hash, access_count, created_at, updated_at)
                   VALUES (${oldLink.code}, ${oldLink.longUrl}, ${oldLink.hash}, 4, ${hourAgo.toISOString()}, ${hourAgo.toISOString()})`;
      await client`INSERT INTO link_visit_buckets (code, starts_at, hours, humans, bots) VALUES (${oldLink.code}, ${hourAgo.toISOString()}, 1, 3, 1)`;
      await client`INSERT INTO orphan_visits (day, kind, referrer, humans, bots) VALUES ('2026-12-06', 'unknown', 'news.example', 2, 1)`;
      const db = await openDatabase({ engine: "postgres", url: testDb.url });
      try {
        await afterUpgrade(db);
      } finally {
        await db.close();
      }
    } finally {
      await client.end();
      await testDb.drop();
    }
  });
});
