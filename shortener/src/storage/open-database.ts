import { Database as SqliteDatabase } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { drizzle as drizzleSqlite } from "drizzle-orm/bun-sqlite";
import { migrate as migrateSqlite } from "drizzle-orm/bun-sqlite/migrator";
import postgres from "postgres";
import type { AdminStore } from "../admins/admin-store.ts";
import type { LinkStore } from "../links/link-store.ts";
import { defaultDatabaseTimeoutMs, storesWithDeadline } from "./database-deadline.ts";
import type { DatabaseTarget } from "./database-target.ts";
import { PostgresAdminStore } from "./postgres/postgres-admin-store.ts";
import { PostgresLinkStore } from "./postgres/postgres-link-store.ts";
import { SqliteAdminStore } from "./sqlite/sqlite-admin-store.ts";
import { SqliteLinkStore } from "./sqlite/sqlite-link-store.ts";

export interface Database {
  engine: DatabaseTarget["engine"];
  links: LinkStore;
  admins: AdminStore;
  /** Resolves when the database answers; for `/ready`. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = (engine: string) => new URL(`./${engine}/migrations`, import.meta.url).pathname;

// Any fixed number works; it only has to be the same in every replica.
const migrationLockId = 7_202_611;

export interface OpenDatabaseOptions {
  /** Deadline of every call (DATABASE_TIMEOUT_MS); see `storesWithDeadline`. */
  timeoutMs?: number;
}

/** Connects, applies pending migrations, and returns the stores, every call bounded by the deadline. */
export async function openDatabase(target: DatabaseTarget, options: OpenDatabaseOptions = {}): Promise<Database> {
  const timeoutMs = options.timeoutMs ?? defaultDatabaseTimeoutMs;
  const database = target.engine === "postgres" ? await openPostgres(target.url, timeoutMs) : await openSqlite(target.path);
  return { ...database, ...storesWithDeadline(database, timeoutMs) };
}

async function openPostgres(url: string, timeoutMs: number): Promise<Database> {
  await applyPostgresMigrations(url);
  const client = postgres(url, {
    max: 10,
    connect_timeout: 5,
    onnotice: () => {},
    // The server gives up too, so a statement stuck behind a lock frees its connection.
    connection: { statement_timeout: timeoutMs },
  });
  const db = drizzlePostgres(client);
  const links = new PostgresLinkStore(db, client);
  return {
    engine: "postgres",
    links,
    admins: new PostgresAdminStore(db),
    ping: () => links.ping(),
    close: () => links.end(),
  };
}

/**
 * Replicas start together: an advisory lock, held on a one-connection client
 * so every statement shares its session, makes the first replica apply the
 * migrations while the others wait, then find nothing left to do.
 */
async function applyPostgresMigrations(url: string): Promise<void> {
  const client = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await client`SELECT pg_advisory_lock(${migrationLockId})`;
    await migratePostgres(drizzlePostgres(client), { migrationsFolder: migrationsFolder("postgres") });
    await client`SELECT pg_advisory_unlock(${migrationLockId})`;
  } finally {
    await client.end({ timeout: 5 });
  }
}

async function openSqlite(path: string): Promise<Database> {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SqliteDatabase(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  const db = drizzleSqlite({ client: sqlite });
  migrateSqlite(db, { migrationsFolder: migrationsFolder("sqlite") });
  return {
    engine: "sqlite",
    links: new SqliteLinkStore(db),
    admins: new SqliteAdminStore(db),
    ping: async () => {
      sqlite.query("SELECT 1").get();
    },
    close: async () => sqlite.close(),
  };
}
