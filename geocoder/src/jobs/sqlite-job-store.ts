import { useWal } from "@linkgeo/shared";
import { Database } from "bun:sqlite";
import { mkdirSync, statfsSync } from "node:fs";
import { dirname } from "node:path";
import { type JobQuota, type JobUsage, quotaRefusal, type QuotaRefusal } from "./job-quota.ts";
import { chargedBytes, jobSize, legacyPointBytes, minJobBytes, reserveSql, resultBytesChange, unansweredShare } from "./job-size.ts";
import type { ClaimedPoint, JobRecord, JobStore, NewJob, PointResult, StoredPoint } from "./job-store.ts";
import * as rows from "./job-rows.ts";

/**
 * Opens (creating it and its folder if needed) the SQLite file of the jobs,
 * beside L2's. Every replica on the machine opens the same file: WAL lets
 * their reads go on while one writes. Opening it and making its tables
 * (replicas starting together) waits for another's lock up to 5 s; once
 * the store is made, a writer that finds another's lock waits 50 ms in
 * SQLite (which blocks its event loop), then gives up and SqliteJobStore
 * tries again after a pause that does not block it.
 * synchronous=NORMAL: a power cut may take back
 * the last commits, never half of one, so it loses some results and their
 * counts together, and those points are simply answered again; a synced
 * commit per claim and per result cost a job ~90 µs a point
 * (bench:geocode-batch).
 */
export function openJobDatabase(path: string): Database {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { create: true, strict: true });
  useWal(db);
  return db;
}

/** How long SQLite itself waits for another process's lock once the store is made (it blocks the event loop meanwhile). */
const sqliteLockWaitMs = 50;

/** How long a write keeps trying for another process's lock before it fails: under the store's 5 s deadline, so it gives up before its caller's 503 (a job made after its 503 would run with nobody holding its id). */
const lockWaitMs = 4_000;

/** Points deleted per transaction when an expired job goes: each delete holds the file's lock briefly. */
const pointsPerDelete = 5_000;

/** A job's waiting points a claim may take (no lease, or one that ran out), in order, from the index of waiting points. */
export const waitingPointsSql = `SELECT idx, latitude, longitude, query FROM geocode_job_points INDEXED BY geocode_job_points_waiting
  WHERE job = ?1 AND result IS NULL AND (lease_until IS NULL OR lease_until <= ?2) ORDER BY idx LIMIT ?3`;

/** A client's points waiting, the bytes of its jobs not expired and the first of them to expire; ?1 the client, ?2 now, ?3 `minJobBytes`. */
const clientUsageSql = `SELECT
    COALESCE(SUM(CASE WHEN ${rows.runningSql()} THEN total - done END), 0) AS points_waiting,
    COALESCE(SUM(CASE WHEN expires_at IS NULL OR expires_at > ?2 THEN MAX(bytes, ?3) END), 0) AS bytes,
    MIN(CASE WHEN expires_at > ?2 THEN expires_at END) AS next_expiry
  FROM geocode_jobs WHERE client = ?1`;

/**
 * The jobs on bun:sqlite. A creation, a claim, a completion and a
 * cancellation are each one IMMEDIATE transaction: SQLite has one writer at
 * a time over every process on the file, so no two replicas take the same
 * point, and a creation's quota check sees every job made before it. An
 * expired job is first marked `deleting` (no read sees it again), then its
 * points go a few thousand a transaction, the event loop free between them.
 * `diskFree`: the free bytes of the file's disk (default: statfs of its
 * folder; none for `:memory:`).
 */
export class SqliteJobStore implements JobStore {
  private readonly diskFree: () => number | undefined;

  constructor(
    private readonly db: Database,
    options: { diskFree?: () => number | undefined } = {},
  ) {
    this.diskFree = options.diskFree ?? diskFreeOf(db.filename);
    db.exec(`CREATE TABLE IF NOT EXISTS geocode_jobs (
      id_hash TEXT PRIMARY KEY,
      status TEXT NOT NULL,
      platform TEXT,
      language TEXT,
      total INTEGER NOT NULL,
      done INTEGER NOT NULL,
      failed INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      finished_at INTEGER,
      expires_at INTEGER,
      client TEXT,
      bytes INTEGER,
      kind TEXT NOT NULL DEFAULT 'reverse'
    )`);
    // A file made before the quotas: its jobs are charged from their size (job-size.ts) and belong to no client.
    db.transaction(() => {
      const columns = db
        .query<{ name: string }, []>("PRAGMA table_info(geocode_jobs)")
        .all()
        .map((column) => column.name);
      if (!columns.includes("client")) db.exec("ALTER TABLE geocode_jobs ADD COLUMN client TEXT");
      if (!columns.includes("bytes")) db.exec("ALTER TABLE geocode_jobs ADD COLUMN bytes INTEGER");
      // A file made before forward jobs: every job in it is a reverse one.
      if (!columns.includes("kind")) db.exec("ALTER TABLE geocode_jobs ADD COLUMN kind TEXT NOT NULL DEFAULT 'reverse'");
      db.query("UPDATE geocode_jobs SET bytes = total * ? WHERE bytes IS NULL").run(legacyPointBytes);
    }).immediate();
    // The running jobs of either kind, for the claims (before forward jobs: `geocode_jobs_running`, of 'running' alone).
    db.exec(`CREATE INDEX IF NOT EXISTS geocode_jobs_runs ON geocode_jobs (created_at) WHERE ${rows.runningSql()}`);
    db.exec("DROP INDEX IF EXISTS geocode_jobs_running");
    db.exec("CREATE INDEX IF NOT EXISTS geocode_jobs_expires_at ON geocode_jobs (expires_at) WHERE expires_at IS NOT NULL");
    db.exec("CREATE INDEX IF NOT EXISTS geocode_jobs_client ON geocode_jobs (client, expires_at)");
    db.exec(`CREATE TABLE IF NOT EXISTS geocode_job_points (
      job TEXT NOT NULL,
      idx INTEGER NOT NULL,
      point_id TEXT,
      latitude REAL,
      longitude REAL,
      lease_owner TEXT,
      lease_until INTEGER,
      result TEXT,
      query TEXT,
      PRIMARY KEY (job, idx)
    ) WITHOUT ROWID`);
    db.transaction(() => {
      const columns = db
        .query<{ name: string }, []>("PRAGMA table_info(geocode_job_points)")
        .all()
        .map((column) => column.name);
      if (!columns.includes("query")) db.exec("ALTER TABLE geocode_job_points ADD COLUMN query TEXT");
    }).immediate();
    // The points still waiting, for the claims: a finished point leaves it.
    db.exec("CREATE INDEX IF NOT EXISTS geocode_job_points_waiting ON geocode_job_points (job, idx) WHERE result IS NULL");
    // The tables are there: from now on SQLite waits briefly, and write() waits without blocking the event loop.
    db.exec(`PRAGMA busy_timeout = ${sqliteLockWaitMs}`);
  }

  async create(job: NewJob, ttlMs: number, quota: JobQuota): Promise<QuotaRefusal | undefined> {
    const size = jobSize(job.points);
    const refused = job.points.length - size.waiting;
    const insertPoint = this.db.prepare<unknown, [string, number, string | null, number | null, number | null, string | null, string | null]>(
      "INSERT INTO geocode_job_points (job, idx, point_id, latitude, longitude, query, result) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    const finished = size.waiting === 0;
    const refusal = await this.write(() => {
      // Under the write lock: every job made before this one is counted, none can be made meanwhile.
      const refusal = quotaRefusal(this.usageNow(job.client, job.createdAt), { bytes: chargedBytes(size.bytes), waiting: size.waiting }, quota, {
        now: job.createdAt,
        ttlMs,
      });
      if (refusal) return refusal;
      this.db
        .query(
          `INSERT INTO geocode_jobs (id_hash, status, platform, language, total, done, failed, created_at, finished_at, expires_at, client, bytes, kind)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          job.idHash,
          finished ? "done" : rows.runningStatus[job.kind],
          job.platform,
          job.language,
          job.points.length,
          refused,
          refused,
          job.createdAt,
          finished ? job.createdAt : null,
          finished ? job.createdAt + ttlMs : null,
          job.client,
          size.bytes,
          job.kind,
        );
      job.points.forEach((point, index) => {
        insertPoint.run(
          job.idHash,
          index,
          rows.storedId(point.id),
          point.latitude,
          point.longitude,
          rows.storedQuery(point.query),
          point.result ? JSON.stringify(point.result) : null,
        );
      });
      return undefined;
    });
    insertPoint.finalize();
    return refusal;
  }

  async usage(client: string, now: number): Promise<JobUsage> {
    return this.usageNow(client, now);
  }

  private usageNow(client: string, now: number): JobUsage {
    const own = this.db
      .query<{ points_waiting: number; bytes: number; next_expiry: number | null }, [string, number, number]>(clientUsageSql)
      .get(client, now, minJobBytes)!;
    const store = this.db.query<{ bytes: number }, [number]>("SELECT COALESCE(SUM(MAX(bytes, ?)), 0) AS bytes FROM geocode_jobs").get(minJobBytes)!;
    const diskFreeBytes = this.diskFree();
    return {
      clientPointsWaiting: own.points_waiting,
      clientBytes: own.bytes,
      clientNextExpiry: own.next_expiry,
      storeBytes: store.bytes,
      ...(diskFreeBytes === undefined ? {} : { diskFreeBytes }),
    };
  }

  async find(idHash: string): Promise<JobRecord | undefined> {
    const row = this.db.query<rows.JobRow, [string]>("SELECT * FROM geocode_jobs WHERE id_hash = ? AND status <> 'deleting'").get(idHash);
    return row ? rows.jobRecordOf(row) : undefined;
  }

  /**
   * `work` in one IMMEDIATE transaction. When another process holds the
   * file's write lock past SQLite's own short wait, it is tried again after
   * 10-40 ms without blocking the event loop (single queries and /health
   * go on meanwhile), for up to `lockWaitMs`.
   */
  private async write<T>(work: () => T): Promise<T> {
    const started = performance.now();
    for (;;) {
      try {
        return this.db.transaction(work).immediate();
      } catch (error) {
        const busy = (error as { code?: string }).code?.startsWith("SQLITE_BUSY") === true;
        if (!busy || performance.now() - started > lockWaitMs) throw error;
        await Bun.sleep(10 + Math.random() * 30);
      }
    }
  }

  async claim(owner: string, limit: number, now: number, leaseMs: number): Promise<ClaimedPoint[]> {
    return this.write(() => {
      const jobs = this.db
        .query<rows.ClaimJobRow, []>(`SELECT id_hash, kind, platform, language FROM geocode_jobs WHERE ${rows.runningSql()} ORDER BY created_at, id_hash`)
        .all();
      // Job by job, each one's waiting points in order, from the partial index of waiting points: one query over
      // every job's points sorted them all, and the primary key (SQLite's own choice) walks every answered point
      // first; either made each claim cost more as the job went on (bench:geocode-batch).
      const waiting = this.db.query<rows.ClaimPointRow, [string, number, number]>(waitingPointsSql);
      const lease = this.db.query<unknown, [string, number, string, number]>(
        "UPDATE geocode_job_points SET lease_owner = ?, lease_until = ? WHERE job = ? AND idx = ?",
      );
      const claimed: ClaimedPoint[] = [];
      for (const job of jobs) {
        if (claimed.length >= limit) break;
        for (const point of waiting.all(job.id_hash, now, limit - claimed.length)) {
          lease.run(owner, now + leaseMs, job.id_hash, point.idx);
          claimed.push(rows.claimedPoint(job, point));
        }
      }
      return claimed;
    });
  }

  async renew(owner: string, points: readonly ClaimedPoint[], until: number): Promise<void> {
    await this.write(() => {
      const renew = this.db.query<unknown, [number, string, number, string]>(
        "UPDATE geocode_job_points SET lease_until = ? WHERE job = ? AND idx = ? AND lease_owner = ? AND result IS NULL",
      );
      for (const point of points) renew.run(until, point.job, point.index, owner);
    });
  }

  async release(owner: string, points: readonly ClaimedPoint[]): Promise<void> {
    await this.write(() => {
      const release = this.db.query<unknown, [string, number, string]>(
        "UPDATE geocode_job_points SET lease_owner = NULL, lease_until = NULL WHERE job = ? AND idx = ? AND lease_owner = ? AND result IS NULL",
      );
      for (const point of points) release.run(point.job, point.index, owner);
    });
  }

  async complete(owner: string, results: ReadonlyArray<{ point: ClaimedPoint; result: PointResult }>, now: number, ttlMs: number): Promise<number> {
    const stored = results.map(({ point, result }) => ({ point, result, text: JSON.stringify(result) }));
    return this.write(() => {
      const write = this.db.query<unknown, [string, string, number, string]>(
        `UPDATE geocode_job_points SET result = ?, lease_owner = NULL, lease_until = NULL
         WHERE job = ? AND idx = ? AND lease_owner = ? AND result IS NULL
           AND EXISTS (SELECT 1 FROM geocode_jobs WHERE id_hash = geocode_job_points.job AND ${rows.runningSql()})`,
      );
      const written = stored.filter(({ point, text }) => write.run(text, point.job, point.index, owner).changes > 0);
      const perJob = rows.countsPerJob(
        written.map(({ point, result, text }) => ({ job: point.job, failed: result.error !== null, bytes: resultBytesChange(rows.claimedQuery(point), text) })),
      );
      // The CASEs read the row as it was: done + ?1 is the new count.
      const count = this.db.query<unknown, [number, number, number, number, number, string]>(
        `UPDATE geocode_jobs SET done = done + ?1, failed = failed + ?2, bytes = bytes + ?3,
           status = CASE WHEN done + ?1 >= total THEN 'done' ELSE status END,
           finished_at = CASE WHEN done + ?1 >= total THEN ?4 ELSE finished_at END,
           expires_at = CASE WHEN done + ?1 >= total THEN ?5 ELSE expires_at END
         WHERE id_hash = ?6 AND ${rows.runningSql()}`,
      );
      for (const [job, counts] of perJob) count.run(counts.done, counts.failed, counts.bytes, now, now + ttlMs, job);
      return written.length;
    });
  }

  async cancel(idHash: string, now: number, ttlMs: number): Promise<JobRecord | undefined> {
    return this.write(() => {
      // Its points left will never have a result: their reserve is given back.
      this.db
        .query(
          `UPDATE geocode_jobs SET status = 'cancelled', finished_at = ?1, expires_at = ?2,
             bytes = bytes - ${unansweredShare} * (SELECT COALESCE(SUM(${reserveSql("json_extract(query, '$.limit')")}), 0)
               FROM geocode_job_points WHERE job = ?3 AND result IS NULL)
           WHERE id_hash = ?3 AND ${rows.runningSql()}`,
        )
        .run(now, now + ttlMs, idHash);
      const row = this.db.query<rows.JobRow, [string]>("SELECT * FROM geocode_jobs WHERE id_hash = ? AND status <> 'deleting'").get(idHash);
      return row ? rows.jobRecordOf(row) : undefined;
    });
  }

  async points(idHash: string, afterIndex: number, limit: number): Promise<StoredPoint[]> {
    return this.db
      .query<rows.PointRow, [string, number, number]>(
        "SELECT idx, point_id, latitude, longitude, query, result FROM geocode_job_points WHERE job = ? AND idx > ? ORDER BY idx LIMIT ?",
      )
      .all(idHash, afterIndex, limit)
      .map(rows.storedPointOf);
  }

  async deleteExpired(now: number): Promise<number> {
    await this.write(() => this.db.query("UPDATE geocode_jobs SET status = 'deleting' WHERE expires_at <= ? AND status <> 'deleting'").run(now));
    // Jobs a replica was deleting when it stopped are among them, and go now.
    const deleting = this.db.query<{ id_hash: string }, []>("SELECT id_hash FROM geocode_jobs WHERE status = 'deleting'").all();
    const deletePoints = this.db.query<unknown, [string, number]>(
      "DELETE FROM geocode_job_points WHERE job = ?1 AND idx IN (SELECT idx FROM geocode_job_points WHERE job = ?1 LIMIT ?2)",
    );
    for (const { id_hash } of deleting) {
      while ((await this.write(() => deletePoints.run(id_hash, pointsPerDelete))).changes > 0) await Bun.sleep(0);
      await this.write(() => this.db.query("DELETE FROM geocode_jobs WHERE id_hash = ?").run(id_hash));
    }
    return deleting.length;
  }

  async ping(): Promise<void> {
    this.db.query("SELECT 1").get();
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

/** The free bytes of the disk a SQLite file is on, read when asked; none for a database in memory. */
function diskFreeOf(filename: string): () => number | undefined {
  if (filename === "" || filename === ":memory:") return () => undefined;
  const folder = dirname(filename);
  return () => {
    const disk = statfsSync(folder);
    return disk.bavail * disk.bsize;
  };
}
