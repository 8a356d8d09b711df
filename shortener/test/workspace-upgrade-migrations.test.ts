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
import { hashManageToken } from "../src/auth/manage-token.ts";
import { openDatabase, type Database } from "../src/storage/open-database.ts";
import { migrationsBefore } from "./support/migrations-before.ts";

/**
 * The two migrations of 2026-12-08 on a database an earlier version wrote
 * (0029 and 0030 on SQLite, 0031 and 0032 on Postgres): an invite of
 * before names no maker and is withdrawn; a link moved into a workspace
 * before keeps no hash its old manage token matches, while a link of no
 * workspace keeps its own.
 */
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const inviteHash = "ab".repeat(32);
const tokens = { moved: "token-of-a-link-moved-in", free: "token-of-a-link-of-no-workspace" };
/** The rows the earlier version wrote, as SQL both engines take (times in ms on SQLite, timestamps on Postgres); the invite expires `until`. */
const rows = (at: string, until: string) => [
  `INSERT INTO people (id, username, password_hash, created_at) VALUES (1, 'olga', 'h', ${at})`,
  `INSERT INTO workspaces (id, name, created_at) VALUES (1, 'Old', ${at})`,
  `INSERT INTO workspace_members (workspace_id, person_id, role, created_at) VALUES (1, 1, 'owner', ${at})`,
  `INSERT INTO workspace_invites (id_hash, workspace_id, role, created_at, expires_at) VALUES ('${inviteHash}', 1, 'owner', ${at}, ${until})`,
  `INSERT INTO links (code, long_url, manage_token_hash, created_at, updated_at, workspace_id) VALUES ('moved', 'https://example.com/m', '${hashManageToken(tokens.moved)}', ${at}, ${at}, 1)`,
  `INSERT INTO links (code, long_url, manage_token_hash, created_at, updated_at) VALUES ('free', 'https://example.com/f', '${hashManageToken(tokens.free)}', ${at}, ${at})`,
];

async function expectUpgraded(db: Database): Promise<void> {
  expect(await db.workspaces.findLiveInvite(inviteHash, new Date("2026-01-01T00:00:00Z"))).toBeNull();
  expect(await db.workspaces.liveInvites(1, new Date("2026-01-01T00:00:00Z"))).toEqual([]);
  expect(await db.links.findByManageTokenHash(hashManageToken(tokens.moved))).toBeNull();
  expect((await db.links.findByManageTokenHash(hashManageToken(tokens.free)))?.code).toBe("free");
  expect((await db.links.find("moved"))?.workspaceId).toBe(1);
}

describe("invites and workspace links written before 2026-12-08", () => {
  test("on SQLite", async () => {
    const folder = mkdtempSync(join(tmpdir(), "invite-makers-"));
    folders.push(folder);
    const path = join(folder, "links.db");
    const old = new SqliteDatabase(path);
    migrateSqlite(drizzleSqlite(old), { migrationsFolder: migrationsBefore("sqlite", "0029_invite_makers", folders) });
    for (const statement of rows("1700000000000", "1800000000000")) old.run(statement);
    old.close();
    const db = await openDatabase({ engine: "sqlite", path });
    try {
      await expectUpgraded(db);
    } finally {
      await db.close();
    }
  });

  test("on Postgres", async () => {
    const testDb = await createTestDatabase("invite_makers");
    const client = postgres(testDb.url, { max: 1, onnotice: () => {} });
    try {
      await migratePostgres(drizzlePostgres(client), { migrationsFolder: migrationsBefore("postgres", "0031_invite_makers", folders) });
      for (const statement of rows("'2023-11-14T22:13:20Z'", "'2027-01-15T08:00:00Z'")) await client.unsafe(statement);
      const db = await openDatabase({ engine: "postgres", url: testDb.url });
      try {
        await expectUpgraded(db);
      } finally {
        await db.close();
      }
    } finally {
      await client.end();
      await testDb.drop();
    }
  });
});
