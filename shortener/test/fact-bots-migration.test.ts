import { afterAll, describe, expect, test } from "bun:test";
import { Database as SqliteDatabase } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase } from "@linkgeo/testing";
import { drizzle as drizzleSqlite } from "drizzle-orm/bun-sqlite";
import { migrate as migrateSqlite } from "drizzle-orm/bun-sqlite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { openDatabase } from "../src/storage/open-database.ts";
import { migrationsBefore } from "./support/migrations-before.ts";

/**
 * The migration that splits the breakdowns' bots out (0017 on Postgres,
 * 0015 on SQLite) on a database that already holds days counted without
 * the split: the "bot" device's visits become bots, every other value's
 * stay humans, in the per-link rows and the every-link sums alike.
 */
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Rows of both tables as the version before wrote them: visits, no bots. */
const before = [
  ["devices", "bot", 3],
  ["devices", "desktop", 5],
  ["browsers", "Googlebot", 3],
  ["referrers", "direct", 8],
] as const;

const after = [
  { dimension: "browsers", value: "Googlebot", visits: 3, bots: 0 },
  { dimension: "devices", value: "bot", visits: 3, bots: 3 },
  { dimension: "devices", value: "desktop", visits: 5, bots: 0 },
  { dimension: "referrers", value: "direct", visits: 8, bots: 0 },
];

describe("the breakdowns' bots, on a database that counted without them", () => {
  test("on SQLite", async () => {
    const folder = mkdtempSync(join(tmpdir(), "fact-bots-"));
    folders.push(folder);
    const path = join(folder, "links.db");
    const old = new SqliteDatabase(path);
    migrateSqlite(drizzleSqlite(old), { migrationsFolder: migrationsBefore("sqlite", "0015_fact_bots", folders) });
    for (const [dimension, value, visits] of before) {
      old.query("INSERT INTO link_visit_facts (code, day, dimension, value, visits) VALUES ('old', '2026-11-01', ?, ?, ?)").run(dimension, value, visits);
      old.query("INSERT INTO visit_fact_totals (day, dimension, value, visits) VALUES ('2026-11-01', ?, ?, ?)").run(dimension, value, visits);
    }
    old.close();

    const db = await openDatabase({ engine: "sqlite", path });
    await db.close();
    const migrated = new SqliteDatabase(path, { readonly: true });
    for (const table of ["link_visit_facts_old", "visit_fact_totals"]) {
      expect(migrated.query(`SELECT dimension, value, visits, bots FROM ${table} ORDER BY dimension, value`).all()).toEqual(after);
    }
    migrated.close();
  });

  test("on Postgres", async () => {
    const testDb = await createTestDatabase("fact_bots");
    const client = postgres(testDb.url, { max: 1, onnotice: () => {} });
    try {
      await migratePostgres(drizzlePostgres(client), { migrationsFolder: migrationsBefore("postgres", "0017_fact_bots", folders) });
      for (const [dimension, value, visits] of before) {
        await client`INSERT INTO link_visit_facts (code, day, dimension, value, visits) VALUES ('old', '2026-11-01', ${dimension}, ${value}, ${visits})`;
        await client`INSERT INTO visit_fact_totals (day, dimension, value, visits) VALUES ('2026-11-01', ${dimension}, ${value}, ${visits})`;
      }

      const db = await openDatabase({ engine: "postgres", url: testDb.url });
      await db.close();
      for (const table of ["link_visit_facts_old", "visit_fact_totals"]) {
        const rows = await client.unsafe<Array<Record<string, unknown>>>(
          `SELECT dimension, value, visits::float8 AS visits, bots::float8 AS bots FROM ${table} ORDER BY dimension, value COLLATE "C"`,
        );
        expect([...rows]).toEqual(after);
      }
    } finally {
      await client.end();
      await testDb.drop();
    }
  });
});
