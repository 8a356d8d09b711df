import { Database, type Statement } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { useWal } from "@linkgeo/shared";
import type { CachedAnswer, CacheEntry, CacheLevel } from "./cached-answer.ts";

/**
 * Opens (creating it and its folder if needed) the SQLite file of L2, for
 * main.ts. WAL lets reads go on while a write commits; synchronous=NORMAL is
 * durable enough for a cache, which may lose its last writes on a power cut.
 */
export function openCacheDatabase(path: string): Database {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { create: true, strict: true });
  // Two processes on one file (a restart overlapping the old one) wait for each other's write lock.
  useWal(db);
  // A write-heavy cache (a batch writes a thousand answers in one transaction): 40 MB of WAL between checkpoints
  // rather than 4, each one an fsync, and 32 MB of pages kept in memory rather than 2 (bench:geocode-batch).
  db.exec("PRAGMA wal_autocheckpoint = 10000");
  db.exec("PRAGMA cache_size = -32768");
  return db;
}

/**
 * The table: a rowid table with the key in a unique index, so an answer is
 * appended at the table's end and only the short key goes into a B-tree in
 * key order (a WITHOUT ROWID table kept whole rows of ~500 bytes in key
 * order, and a batch's thousand random keys split its pages: bench:geocode-batch).
 * A file from before is moved over once, its unexpired rows kept.
 */
function createCacheTable(db: Database, now: number): void {
  const existing = db.query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'reverse_cache'").get();
  const create = () => {
    db.exec(`CREATE TABLE IF NOT EXISTS reverse_cache (
      key TEXT NOT NULL UNIQUE,
      value TEXT NOT NULL,
      expires_at INTEGER NOT NULL
    )`);
    db.exec("CREATE INDEX IF NOT EXISTS reverse_cache_expires_at ON reverse_cache (expires_at)");
  };
  if (!existing?.sql.toUpperCase().includes("WITHOUT ROWID")) {
    create();
    return;
  }
  db.transaction(() => {
    db.exec("DROP INDEX IF EXISTS reverse_cache_expires_at");
    db.exec("ALTER TABLE reverse_cache RENAME TO reverse_cache_before");
    create();
    db.query("INSERT INTO reverse_cache (key, value, expires_at) SELECT key, value, expires_at FROM reverse_cache_before WHERE expires_at > ?").run(now);
    db.exec("DROP TABLE reverse_cache_before");
  })();
}

export interface SqliteCacheLevelOptions {
  /** Milliseconds since the epoch; tests pass a clock they move. */
  now?: () => number;
  /** A write prunes expired rows when this long has passed since the last prune. Default 1 h. */
  pruneIntervalMs?: number;
}

interface Row {
  value: string;
}

/**
 * L2: answers kept for days in one SQLite table, `expires_at` in ms since
 * the epoch. Expired rows are never returned; they are deleted by `prune()`,
 * which the first write after each prune interval runs by itself. Only
 * writes grow the table, so pruning on writes bounds it without a timer.
 */
export class SqliteCacheLevel implements CacheLevel {
  private readonly now: () => number;
  private readonly pruneIntervalMs: number;
  private lastPrune = Number.NEGATIVE_INFINITY;
  private readonly select: Statement<Row, [string, number]>;
  private readonly selectMany: Statement<Row & { key: string }, [string, number]>;
  private readonly upsert: Statement<unknown, [string, string, number]>;
  private readonly remove: Statement<unknown, [string]>;
  private readonly removeExpired: Statement<unknown, [number]>;
  private readonly selectOne: Statement<unknown, []>;

  /** `db` is opened, and closed, by the caller: `openCacheDatabase(path)` in main.ts, `:memory:` in tests. */
  constructor(
    private readonly db: Database,
    options: SqliteCacheLevelOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.pruneIntervalMs = options.pruneIntervalMs ?? 60 * 60 * 1000;
    createCacheTable(db, this.now());
    // Positional parameters work whether or not the caller opened the database with `strict`.
    this.select = db.query("SELECT value FROM reverse_cache WHERE key = ? AND expires_at > ?");
    // The keys as one JSON array: one statement whatever their number.
    this.selectMany = db.query("SELECT key, value FROM reverse_cache WHERE key IN (SELECT value FROM json_each(?)) AND expires_at > ?");
    this.upsert = db.query(
      "INSERT INTO reverse_cache (key, value, expires_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at",
    );
    this.remove = db.query("DELETE FROM reverse_cache WHERE key = ?");
    this.removeExpired = db.query("DELETE FROM reverse_cache WHERE expires_at <= ?");
    this.selectOne = db.query("SELECT 1");
  }

  async get(key: string): Promise<CachedAnswer | undefined> {
    const row = this.select.get(key, this.now());
    return row ? (JSON.parse(row.value) as CachedAnswer) : undefined;
  }

  async getMany(keys: readonly string[]): Promise<Map<string, CachedAnswer>> {
    const found = new Map<string, CachedAnswer>();
    if (keys.length === 0) return found;
    for (const row of this.selectMany.all(JSON.stringify(keys), this.now())) found.set(row.key, JSON.parse(row.value) as CachedAnswer);
    return found;
  }

  async set(key: string, answer: CachedAnswer, ttlSeconds: number): Promise<void> {
    this.store(key, answer, ttlSeconds);
    this.pruneWhenDue();
  }

  private store(key: string, answer: CachedAnswer, ttlSeconds: number): void {
    const ttlMs = Math.floor(ttlSeconds * 1000);
    // A lifetime of nothing stores nothing, and leaves no older value behind.
    if (ttlMs > 0) this.upsert.run(key, JSON.stringify(answer), this.now() + ttlMs);
    else this.remove.run(key);
  }

  private pruneWhenDue(): void {
    if (this.now() - this.lastPrune >= this.pruneIntervalMs) this.prune();
  }

  async setMany(entries: readonly CacheEntry[]): Promise<void> {
    if (entries.length === 0) return;
    // One transaction: one commit for the batch, where each set alone commits on its own.
    this.db.transaction(() => {
      for (const { key, answer, ttlSeconds } of entries) this.store(key, answer, ttlSeconds);
    })();
    this.pruneWhenDue();
  }

  /** Deletes every expired row; returns how many went. */
  prune(): number {
    const now = this.now();
    this.lastPrune = now;
    return this.removeExpired.run(now).changes;
  }

  async ping(): Promise<void> {
    this.selectOne.get();
  }
}
