import { Database as SqliteDatabase } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { drizzle as drizzleSqlite } from "drizzle-orm/bun-sqlite";
import { migrate as migrateSqlite } from "drizzle-orm/bun-sqlite/migrator";
import { useWal, type Logger } from "@linkgeo/shared";
import postgres from "postgres";
import { type CountLimits, defaultCountLimits } from "./listing-counts.ts";
import { FreshSingleFlight } from "../visits/fresh-single-flight.ts";
import { defaultDatabaseTimeoutMs } from "../database-deadline.ts";
import { storesWithDeadline, type Stores } from "./stores-with-deadline.ts";
import { storesWatchingWrites, WriteHealth } from "./write-health.ts";
import { readingFromReplicas, type ReadStores } from "./read-routing.ts";
import { defaultReadMaxLagMs, ReadReplicas } from "./postgres/read-replicas.ts";
import type { DatabaseTarget } from "./database-target.ts";
import { PostgresAdminSessionStore } from "./postgres/postgres-admin-session-store.ts";
import { PostgresAdminStore } from "./postgres/postgres-admin-store.ts";
import { PostgresLinkStore } from "./postgres/postgres-link-store.ts";
import { PostgresOrphanVisitStore } from "./postgres/postgres-orphan-visit-store.ts";
import { settleVisitLog } from "./postgres/postgres-visit-log.ts";
import { PostgresVisitStore } from "./postgres/postgres-visit-store.ts";
import { SqliteAdminSessionStore } from "./sqlite/sqlite-admin-session-store.ts";
import { SqliteAdminStore } from "./sqlite/sqlite-admin-store.ts";
import { SqliteLinkStore } from "./sqlite/sqlite-link-store.ts";
import { SqliteApiKeyStore } from "./sqlite/sqlite-api-key-store.ts";
import { PostgresApiKeyStore } from "./postgres/postgres-api-key-store.ts";
import { PostgresDomainStore } from "./postgres/postgres-domain-store.ts";
import { PostgresAllowStore } from "./postgres/postgres-allow-store.ts";
import { PostgresRecheckStore } from "./postgres/postgres-recheck-store.ts";
import { PostgresReportStore } from "./postgres/postgres-report-store.ts";
import { PostgresPeopleStore } from "./postgres/postgres-people-store.ts";
import { SqlitePeopleStore } from "./sqlite/sqlite-people-store.ts";
import { PostgresAuditStore } from "./postgres/postgres-audit-store.ts";
import { SqliteAuditStore } from "./sqlite/sqlite-audit-store.ts";
import { PostgresWorkspaceStore } from "./postgres/postgres-workspace-store.ts";
import { SqliteWorkspaceStore } from "./sqlite/sqlite-workspace-store.ts";
import { SqliteDomainStore } from "./sqlite/sqlite-domain-store.ts";
import { SqliteAllowStore } from "./sqlite/sqlite-allow-store.ts";
import { SqliteRecheckStore } from "./sqlite/sqlite-recheck-store.ts";
import { SqliteReportStore } from "./sqlite/sqlite-report-store.ts";
import { SqliteOrphanVisitStore } from "./sqlite/sqlite-orphan-visit-store.ts";
import { SqliteVisitLog } from "./sqlite/sqlite-visit-log.ts";
import { SqliteVisitStore } from "./sqlite/sqlite-visit-store.ts";

export interface Database extends Stores {
  engine: DatabaseTarget["engine"];
  /** For `/ready`: one check per read replica (DATABASE_READ_URL), failing while it is skipped (down or lagging). */
  readReplicaChecks: Record<string, () => Promise<void>>;
  /** Resolves when the database answers, and takes writes if the last one failed; for `/ready`. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** What each engine provides, before the deadlines and the write watch are put around it. */
interface Engine extends Database {
  /** A small committed write, to see whether the database takes writes again. */
  probeWrite(): Promise<void>;
}

const migrationsFolder = (engine: string) => new URL(`./${engine}/migrations`, import.meta.url).pathname;

// Any fixed number works; it only has to be the same in every replica.
const migrationLockId = 7_202_611;

export interface OpenDatabaseOptions {
  /** Deadline of every call (DATABASE_TIMEOUT_MS); see `storesWithDeadline`. */
  timeoutMs?: number;
  /** Postgres streaming replicas for the reads that may be a moment old (DATABASE_READ_URL); see `readingFromReplicas`. */
  readUrls?: readonly string[];
  /** A replica further behind than this is skipped (DATABASE_READ_MAX_LAG_MS). */
  readMaxLagMs?: number;
  /** Where a read replica's changes of state are told (skipped, answering again). */
  log?: Logger;
  /** How far the listing counts exactly (`defaultCountLimits` unless a test crosses them with fewer links). */
  countLimits?: CountLimits;
}

/** Connects, applies pending migrations, and returns the stores, every call bounded by the deadline. */
export async function openDatabase(target: DatabaseTarget, options: OpenDatabaseOptions = {}): Promise<Database> {
  const timeoutMs = options.timeoutMs ?? defaultDatabaseTimeoutMs;
  const countLimits = options.countLimits ?? defaultCountLimits;
  const engine =
    target.engine === "postgres"
      ? await openPostgres(
          target.url,
          timeoutMs,
          { urls: options.readUrls ?? [], maxLagMs: options.readMaxLagMs ?? defaultReadMaxLagMs, log: options.log },
          countLimits,
        )
      : openSqliteFile(target.path, countLimits);
  return guarded(engine, timeoutMs);
}

/**
 * The stores on an open bun:sqlite handle (tests pass one whose pragmas they
 * change: `query_only`, `max_page_count`); migrations applied.
 */
export function openSqliteDatabase(sqlite: SqliteDatabase, options: OpenDatabaseOptions = {}): Database {
  return guarded(sqliteEngine(sqlite, options.countLimits ?? defaultCountLimits), options.timeoutMs ?? defaultDatabaseTimeoutMs);
}

function guarded(engine: Engine, timeoutMs: number): Database {
  const writes = new WriteHealth(() => engine.probeWrite());
  return {
    engine: engine.engine,
    readReplicaChecks: engine.readReplicaChecks,
    ...storesWatchingWrites(storesWithDeadline(engine, timeoutMs), writes),
    ping: async () => {
      await engine.ping();
      await writes.check();
    },
    close: () => engine.close(),
  };
}

async function openPostgres(
  url: string,
  timeoutMs: number,
  reads: { urls: readonly string[]; maxLagMs: number; log?: Logger },
  countLimits: CountLimits,
): Promise<Engine> {
  await applyPostgresMigrations(url);
  const connect = (to: string) => postgres(to, { max: 10, connect_timeout: 5, onnotice: () => {}, connection: postgresSessionLimits(timeoutMs) });
  const client = connect(url);
  const db = drizzlePostgres(client);
  // The visits reads and the listing's sorted pages sum the visit log first, sharing one run.
  const settling = new FreshSingleFlight(() => settleVisitLog(client));
  const links = new PostgresLinkStore(db, client, () => settling.run(), countLimits);
  const stores = {
    links,
    admins: new PostgresAdminStore(db),
    sessions: new PostgresAdminSessionStore(db),
    visits: new PostgresVisitStore(client, settling),
    orphans: new PostgresOrphanVisitStore(client),
    apiKeys: new PostgresApiKeyStore(db, client),
    domains: new PostgresDomainStore(db),
    allowList: new PostgresAllowStore(db),
    reports: new PostgresReportStore(db),
    recheck: new PostgresRecheckStore(db),
    people: new PostgresPeopleStore(db),
    workspaces: new PostgresWorkspaceStore(db),
    audit: new PostgresAuditStore(db),
  };
  const replicas = reads.urls.length > 0 ? openReadReplicas(url, reads, connect, countLimits) : undefined;
  return {
    engine: "postgres",
    ...(replicas ? readingFromReplicas(stores, replicas.watch) : stores),
    readReplicaChecks: Object.fromEntries(
      (replicas?.watch.replicas ?? []).map((replica) => [
        replica.name,
        async () => {
          if (replica.state !== "ok") throw new Error(`${replica.name} is ${replica.state}`);
        },
      ]),
    ),
    ping: () => links.ping(),
    probeWrite: async () => {
      await client`INSERT INTO write_probe (id, at) VALUES (1, now()) ON CONFLICT (id) DO UPDATE SET at = excluded.at`;
    },
    close: async () => {
      await replicas?.close();
      await links.end();
    },
  };
}

/**
 * The read replicas of DATABASE_READ_URL: each one's stores, the watch on
 * connections of its own (started now), and how to close them all. Only
 * made when there are replicas: without, nothing of it is opened.
 */
function openReadReplicas(
  primaryUrl: string,
  reads: { urls: readonly string[]; maxLagMs: number; log?: Logger },
  connect: (url: string) => postgres.Sql,
  countLimits: CountLimits,
): { watch: ReadReplicas<ReadStores>; close(): Promise<void> } {
  // A replica's reads do not sum the visit log first: that is a write on the primary, whose result the replica
  // would not have replayed yet anyway; every replica's summing step does it every 250 ms.
  const noSummingFirst = () => Promise.resolve();
  const replicaClients = reads.urls.map(connect);
  const watchConnection = (to: string) => postgres(to, { max: 1, connect_timeout: 5, onnotice: () => {} });
  const connections = { primary: watchConnection(primaryUrl), replicas: reads.urls.map(watchConnection) };
  const watch = new ReadReplicas(
    connections,
    replicaClients.map((sql) => ({
      links: new PostgresLinkStore(drizzlePostgres(sql), sql, noSummingFirst, countLimits),
      visits: new PostgresVisitStore(sql, new FreshSingleFlight(noSummingFirst)),
      orphans: new PostgresOrphanVisitStore(sql),
    })),
    { maxLagMs: reads.maxLagMs, log: reads.log },
  );
  watch.start();
  return {
    watch,
    close: async () => {
      watch.stop();
      // At once: requests are drained before the database is closed, and a client of a replica that died could
      // wait out a whole timeout here (postgres.js sometimes does, 5 s each, found by the replica test).
      await Promise.all([...replicaClients, connections.primary, ...connections.replicas].map((sql) => sql.end({ timeout: 0 })));
    },
  };
}

/**
 * What the server enforces on each of the shortener's sessions, from the
 * calls' deadline: a statement stuck behind a lock gives up and frees its
 * connection; and a transaction left idle for twice the deadline is ended
 * with its session, so a replica that stops answering while it holds a
 * lock (frozen, or cut off from the database with its connection open)
 * holds it that long at most, not until TCP notices. The visit log's lock
 * above all: every analytics read waits for it. No transaction of the
 * shortener pauses between its statements for anything but its own event
 * loop.
 */
export function postgresSessionLimits(timeoutMs: number): { statement_timeout: number; idle_in_transaction_session_timeout: number } {
  return { statement_timeout: timeoutMs, idle_in_transaction_session_timeout: 2 * timeoutMs };
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

function openSqliteFile(path: string, countLimits: CountLimits): Engine {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  return sqliteEngine(new SqliteDatabase(path, { create: true, strict: true }), countLimits);
}

function sqliteEngine(sqlite: SqliteDatabase, countLimits: CountLimits): Engine {
  useWal(sqlite);
  // 40 MB of WAL between checkpoints, not 4: a page that many write batches change (an import's, a busy link's) is copied
  // back into the file once per checkpoint rather than every batch or two (docs/shortener.md, "Where the time goes").
  sqlite.exec("PRAGMA wal_autocheckpoint = 10000");
  // Off by default in SQLite: without it deleting a link would leave its analytics behind.
  sqlite.exec("PRAGMA foreign_keys = ON");
  const db = drizzleSqlite({ client: sqlite });
  migrateSqlite(db, { migrationsFolder: migrationsFolder("sqlite") });
  // A row that needs new pages, committed, then removed: a full disk or a
  // full database fails it, as it fails a real insert. 8 KiB spans pages.
  const visitLog = new SqliteVisitLog(sqlite);
  const probe = sqlite.transaction((at: number) => {
    sqlite.query("INSERT INTO write_probe (at, filler) VALUES (?, zeroblob(8192))").run(at);
    sqlite.query("DELETE FROM write_probe").run();
  });
  return {
    engine: "sqlite",
    links: new SqliteLinkStore(db, visitLog, countLimits),
    admins: new SqliteAdminStore(db),
    sessions: new SqliteAdminSessionStore(db),
    visits: new SqliteVisitStore(sqlite, visitLog),
    orphans: new SqliteOrphanVisitStore(sqlite),
    apiKeys: new SqliteApiKeyStore(db),
    domains: new SqliteDomainStore(db),
    allowList: new SqliteAllowStore(db),
    reports: new SqliteReportStore(db),
    recheck: new SqliteRecheckStore(db),
    people: new SqlitePeopleStore(db),
    workspaces: new SqliteWorkspaceStore(db),
    audit: new SqliteAuditStore(db),
    readReplicaChecks: {},
    ping: async () => {
      sqlite.query("SELECT 1").get();
    },
    probeWrite: async () => {
      probe(Date.now());
    },
    close: async () => sqlite.close(),
  };
}
