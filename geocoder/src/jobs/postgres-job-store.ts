import postgres, { type Sql, type TransactionSql } from "postgres";
import { type JobQuota, type JobUsage, quotaRefusal, type QuotaRefusal } from "./job-quota.ts";
import { chargedBytes, jobSize, legacyPointBytes, minJobBytes, reserveSql, resultBytesChange, unansweredShare } from "./job-size.ts";
import type { ClaimedPoint, JobRecord, JobStore, NewJob, PointResult, StoredPoint } from "./job-store.ts";
import * as rows from "./job-rows.ts";

/** Points deleted per statement when an expired job goes. */
const pointsPerDelete = 10_000;

/**
 * One step of deleting a job's points ($1): those below the index `$2` points in, or all that are left. The bound is
 * one value read first (an InitPlan), so the delete is a range of the primary key whatever the statistics say; as
 * `idx IN (SELECT ... LIMIT n)` the planner, seeing small jobs, chose a nested loop that compared every point with
 * every other, and a job of 12,345 points took seconds against the statement timeout.
 */
export const deletePointsSql = `DELETE FROM geocode_job_points WHERE job = $1
  AND idx < COALESCE((SELECT idx FROM geocode_job_points WHERE job = $1 ORDER BY idx OFFSET $2 LIMIT 1), 2147483647)`;

/** Taken while the tables are made, so replicas starting together do not race for them. */
const schemaLockId = 7_202_701;

/** Taken by every creation while it checks the quotas and reserves its share, so two at once, on any replicas, cannot both pass on the same room. */
const quotaLockId = 7_202_702;

/**
 * How long a job's reservation (its row, `creating`) may wait for its points: far past the creation's own
 * deadline (30 s). A replica that died between the two leaves a row the pruning deletes then, giving its share back.
 */
const creatingForMs = 3_600_000;

// Instants as ms since the epoch (bigint columns read as float8): the store's callers count in ms.
const jobColumns =
  "kind, status, platform, language, total, done, failed, created_at::float8 AS created_at, finished_at::float8 AS finished_at, expires_at::float8 AS expires_at";

/**
 * The jobs on Postgres (GEOCODER_JOBS_DATABASE_URL), for replicas on many
 * machines. A claim takes its points FOR UPDATE SKIP LOCKED, so replicas
 * claiming at once each get other points; a result is written only where
 * the writer still holds the lease. A creation checks the quotas and
 * writes its job's row (`creating`, counted, read by no one) in one short
 * transaction under an advisory lock, then its points in another: the
 * creations of every replica wait for each other only for the first.
 */
export class PostgresJobStore implements JobStore {
  private constructor(private readonly sql: Sql) {}

  /** Connects and makes the tables when they are missing. `timeoutMs` bounds every statement. */
  static async open(url: string, timeoutMs: number): Promise<PostgresJobStore> {
    const sql = postgres(url, { max: 4, connect_timeout: 5, onnotice: () => {}, connection: { statement_timeout: timeoutMs } });
    try {
      await sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${schemaLockId})`;
        await tx`CREATE TABLE IF NOT EXISTS geocode_jobs (
          id_hash text PRIMARY KEY,
          status text NOT NULL,
          platform text,
          language text,
          total integer NOT NULL,
          done integer NOT NULL,
          failed integer NOT NULL,
          created_at bigint NOT NULL,
          finished_at bigint,
          expires_at bigint,
          client text,
          bytes bigint
        )`;
        // A database made before the quotas: its jobs are charged from their size (job-size.ts) and belong to no client.
        // Before forward jobs: every job in it is a reverse one.
        const missing = await missingColumns(tx, "geocode_jobs", ["client", "bytes", "kind"]);
        if (missing.has("client")) await tx`ALTER TABLE geocode_jobs ADD COLUMN client text`;
        if (missing.has("bytes")) await tx`ALTER TABLE geocode_jobs ADD COLUMN bytes bigint`;
        if (missing.has("kind")) await tx`ALTER TABLE geocode_jobs ADD COLUMN kind text NOT NULL DEFAULT 'reverse'`;
        await tx`UPDATE geocode_jobs SET bytes = total::bigint * ${legacyPointBytes} WHERE bytes IS NULL`;
        // The running jobs of either kind, for the claims (before forward jobs: `geocode_jobs_running`, of 'running' alone).
        await tx.unsafe(`CREATE INDEX IF NOT EXISTS geocode_jobs_runs ON geocode_jobs (created_at) WHERE ${rows.runningSql()}`);
        if (await indexExists(tx, "geocode_jobs_running")) await tx`DROP INDEX geocode_jobs_running`;
        await tx`CREATE INDEX IF NOT EXISTS geocode_jobs_expires_at ON geocode_jobs (expires_at) WHERE expires_at IS NOT NULL`;
        await tx`CREATE INDEX IF NOT EXISTS geocode_jobs_client ON geocode_jobs (client, expires_at)`;
        await tx`CREATE TABLE IF NOT EXISTS geocode_job_points (
          job text NOT NULL,
          idx integer NOT NULL,
          point_id text,
          latitude float8,
          longitude float8,
          lease_owner text,
          lease_until bigint,
          result text,
          PRIMARY KEY (job, idx)
        )`;
        if ((await missingColumns(tx, "geocode_job_points", ["query"])).size > 0) await tx`ALTER TABLE geocode_job_points ADD COLUMN query text`;
        await tx`CREATE INDEX IF NOT EXISTS geocode_job_points_waiting ON geocode_job_points (job, idx) WHERE result IS NULL`;
      });
    } catch (error) {
      await sql.end({ timeout: 1 });
      throw error;
    }
    return new PostgresJobStore(sql);
  }

  async create(job: NewJob, ttlMs: number, quota: JobQuota): Promise<QuotaRefusal | undefined> {
    const size = jobSize(job.points);
    const refused = job.points.length - size.waiting;
    const finished = size.waiting === 0;
    const refusal = await this.sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${quotaLockId})`;
      // Every creation that passed before this one has committed its row: the sums count it.
      const share = { bytes: chargedBytes(size.bytes), waiting: size.waiting };
      const refusal = quotaRefusal(await usageIn(tx, job.client, job.createdAt), share, quota, { now: job.createdAt, ttlMs });
      if (refusal) return refusal;
      await tx`
        INSERT INTO geocode_jobs (id_hash, kind, status, platform, language, total, done, failed, created_at, finished_at, expires_at, client, bytes)
        VALUES (${job.idHash}, ${job.kind}, 'creating', ${job.platform}, ${job.language}, ${job.points.length}, ${refused}, ${refused},
          ${job.createdAt}, NULL, ${job.createdAt + creatingForMs}, ${job.client}, ${size.bytes})`;
      return undefined;
    });
    if (refusal) return refusal;
    try {
      await this.writePoints(job, finished, ttlMs);
    } catch (error) {
      // Its share given back at once; should this fail too, the pruning deletes the row once `creatingForMs` is over.
      await this.sql`DELETE FROM geocode_jobs WHERE id_hash = ${job.idHash} AND status = 'creating'`.catch(() => {});
      throw error;
    }
    return undefined;
  }

  /** A reserved job's points, and the job then running (or done, when every point was refused): one transaction. */
  private async writePoints(job: NewJob, finished: boolean, ttlMs: number): Promise<void> {
    await this.sql.begin(async (tx) => {
      // Ten thousand points a statement: five arrays of a few hundred kB at most.
      for (let from = 0; from < job.points.length; from += 10_000) {
        const slice = job.points.slice(from, from + 10_000);
        await tx`
          INSERT INTO geocode_job_points (job, idx, point_id, latitude, longitude, query, result)
          SELECT ${job.idHash}, ${from}::integer + ord::integer - 1, point_id, latitude, longitude, query, result
          FROM unnest(${slice.map((point) => rows.storedId(point.id))}::text[], ${slice.map((point) => point.latitude)}::float8[],
            ${slice.map((point) => point.longitude)}::float8[], ${slice.map((point) => rows.storedQuery(point.query))}::text[],
            ${slice.map((point) => (point.result ? JSON.stringify(point.result) : null))}::text[])
            WITH ORDINALITY AS p(point_id, latitude, longitude, query, result, ord)`;
      }
      const made = await tx`
        UPDATE geocode_jobs SET status = ${finished ? "done" : rows.runningStatus[job.kind]}, finished_at = ${finished ? job.createdAt : null},
          expires_at = ${finished ? job.createdAt + ttlMs : null}
        WHERE id_hash = ${job.idHash} AND status = 'creating'`;
      if (made.count === 0) throw new Error("the job's reservation was deleted before its points were written");
    });
  }

  async usage(client: string, now: number): Promise<JobUsage> {
    return usageIn(this.sql, client, now);
  }

  async find(idHash: string): Promise<JobRecord | undefined> {
    const [row] = await this.sql<
      rows.JobRow[]
    >`SELECT ${this.sql.unsafe(jobColumns)} FROM geocode_jobs WHERE id_hash = ${idHash} AND status NOT IN ('deleting', 'creating')`;
    return row ? rows.jobRecordOf(row) : undefined;
  }

  async claim(owner: string, limit: number, now: number, leaseMs: number): Promise<ClaimedPoint[]> {
    return this.sql.begin(async (tx) => {
      const jobs = await tx.unsafe<rows.ClaimJobRow[]>(
        `SELECT id_hash, kind, platform, language FROM geocode_jobs WHERE ${rows.runningSql()} ORDER BY created_at, id_hash`,
      );
      // Job by job, each one's waiting points in order (the partial index of waiting points, walked from its first):
      // one query over every job's points sorted them all, every claim.
      const claimed: ClaimedPoint[] = [];
      for (const job of jobs) {
        if (claimed.length >= limit) break;
        const points = await tx<rows.ClaimPointRow[]>`
          UPDATE geocode_job_points p SET lease_owner = ${owner}, lease_until = ${now + leaseMs}
          FROM (
            SELECT idx FROM geocode_job_points
            WHERE job = ${job.id_hash} AND result IS NULL AND (lease_until IS NULL OR lease_until <= ${now})
            ORDER BY idx LIMIT ${limit - claimed.length} FOR UPDATE SKIP LOCKED
          ) AS waiting
          WHERE p.job = ${job.id_hash} AND p.idx = waiting.idx
          RETURNING p.idx, p.latitude, p.longitude, p.query`;
        // RETURNING keeps no order: the claim's is the points'.
        for (const point of [...points].sort((a, b) => a.idx - b.idx)) claimed.push(rows.claimedPoint(job, point));
      }
      return claimed;
    });
  }

  async renew(owner: string, points: readonly ClaimedPoint[], until: number): Promise<void> {
    if (points.length === 0) return;
    await this.sql`
      UPDATE geocode_job_points p SET lease_until = ${until}
      FROM unnest(${points.map((point) => point.job)}::text[], ${points.map((point) => point.index)}::integer[]) AS c(job, idx)
      WHERE p.job = c.job AND p.idx = c.idx AND p.lease_owner = ${owner} AND p.result IS NULL`;
  }

  async release(owner: string, points: readonly ClaimedPoint[]): Promise<void> {
    if (points.length === 0) return;
    await this.sql`
      UPDATE geocode_job_points p SET lease_owner = NULL, lease_until = NULL
      FROM unnest(${points.map((point) => point.job)}::text[], ${points.map((point) => point.index)}::integer[]) AS c(job, idx)
      WHERE p.job = c.job AND p.idx = c.idx AND p.lease_owner = ${owner} AND p.result IS NULL`;
  }

  async complete(owner: string, results: ReadonlyArray<{ point: ClaimedPoint; result: PointResult }>, now: number, ttlMs: number): Promise<number> {
    if (results.length === 0) return 0;
    return this.sql.begin(async (tx) => {
      // The jobs' rows first, in one order: a cancellation (which updates its job's row) then waits for this
      // completion or this one for it, so results are never written to a job whose counts can no longer move.
      const jobs = [...new Set(results.map(({ point }) => point.job))].sort();
      await tx`SELECT 1 FROM geocode_jobs WHERE id_hash = ANY(${jobs}::text[]) ORDER BY id_hash FOR UPDATE`;
      const texts = results.map(({ result }) => JSON.stringify(result));
      const written = await tx<Array<{ job: string; failed: number; bytes: number }>>`
        UPDATE geocode_job_points p SET result = r.result, lease_owner = NULL, lease_until = NULL
        FROM unnest(${results.map(({ point }) => point.job)}::text[], ${results.map(({ point }) => point.index)}::integer[],
          ${texts}::text[], ${results.map(({ result }) => (result.error === null ? 0 : 1))}::integer[], ${texts.map((text, i) => resultBytesChange(rows.claimedQuery(results[i]!.point), text))}::integer[])
          AS r(job, idx, result, failed, bytes)
        WHERE p.job = r.job AND p.idx = r.idx AND p.lease_owner = ${owner} AND p.result IS NULL
          AND EXISTS (SELECT 1 FROM geocode_jobs j WHERE j.id_hash = p.job AND ${tx.unsafe(rows.runningSql("j."))})
        RETURNING p.job, r.failed, r.bytes`;
      for (const [job, counts] of rows.countsPerJob(written.map(({ job, failed, bytes }) => ({ job, failed: failed === 1, bytes })))) {
        // The CASEs read the row as it was: done + the new ones is the new count.
        await tx`
          UPDATE geocode_jobs SET done = done + ${counts.done}, failed = failed + ${counts.failed}, bytes = bytes + ${counts.bytes},
            status = CASE WHEN done + ${counts.done} >= total THEN 'done' ELSE status END,
            finished_at = CASE WHEN done + ${counts.done} >= total THEN ${now} ELSE finished_at END,
            expires_at = CASE WHEN done + ${counts.done} >= total THEN ${now + ttlMs} ELSE expires_at END
          WHERE id_hash = ${job} AND ${tx.unsafe(rows.runningSql())}`;
      }
      return written.length;
    });
  }

  async cancel(idHash: string, now: number, ttlMs: number): Promise<JobRecord | undefined> {
    await this.sql.begin(async (tx) => {
      // The job's row first: a completion holds it until it commits, so the points left are summed after it.
      await tx`SELECT 1 FROM geocode_jobs WHERE id_hash = ${idHash} FOR UPDATE`;
      // Its points left will never have a result: their reserve is given back.
      await tx`
        UPDATE geocode_jobs SET status = 'cancelled', finished_at = ${now}, expires_at = ${now + ttlMs},
          bytes = bytes - ${unansweredShare} * (SELECT COALESCE(SUM(${tx.unsafe(reserveSql("(query::jsonb ->> 'limit')::integer"))}), 0)
            FROM geocode_job_points WHERE job = ${idHash} AND result IS NULL)
        WHERE id_hash = ${idHash} AND ${tx.unsafe(rows.runningSql())}`;
    });
    return this.find(idHash);
  }

  async points(idHash: string, afterIndex: number, limit: number): Promise<StoredPoint[]> {
    const points = await this.sql<rows.PointRow[]>`
      SELECT idx, point_id, latitude, longitude, query, result FROM geocode_job_points WHERE job = ${idHash} AND idx > ${afterIndex} ORDER BY idx LIMIT ${limit}`;
    return points.map(rows.storedPointOf);
  }

  async deleteExpired(now: number): Promise<number> {
    // Marked first (no read sees them again), then their points a few thousand a statement, each under the statement
    // timeout however many there are; jobs a replica was deleting when it stopped are among them, and go now.
    await this.sql`UPDATE geocode_jobs SET status = 'deleting' WHERE expires_at <= ${now} AND status <> 'deleting'`;
    const deleting = await this.sql<Array<{ id_hash: string }>>`SELECT id_hash FROM geocode_jobs WHERE status = 'deleting'`;
    for (const { id_hash } of deleting) {
      for (;;) {
        const gone = await this.sql.unsafe(deletePointsSql, [id_hash, pointsPerDelete]);
        if (gone.count === 0) break;
      }
      await this.sql`DELETE FROM geocode_jobs WHERE id_hash = ${id_hash}`;
    }
    return deleting.length;
  }

  async ping(): Promise<void> {
    await this.sql`SELECT 1`;
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }
}

/**
 * What a client's jobs and the store hold at `now` (JobUsage): the client's points waiting in running jobs and
 * reservations, the bytes of its jobs not expired and the first to expire, and every job's bytes. Sums over the
 * client's rows (an index) and over the jobs' table, which `minJobBytes` keeps short.
 */
async function usageIn(sql: Sql | TransactionSql, client: string, now: number): Promise<JobUsage> {
  const [own] = await sql<Array<{ points_waiting: number; bytes: number; next_expiry: number | null }>>`
    SELECT
      COALESCE(SUM(total - done) FILTER (WHERE status IN ('running', 'forwarding', 'creating')), 0)::float8 AS points_waiting,
      COALESCE(SUM(GREATEST(bytes, ${minJobBytes})) FILTER (WHERE expires_at IS NULL OR expires_at > ${now}), 0)::float8 AS bytes,
      (MIN(expires_at) FILTER (WHERE expires_at > ${now}))::float8 AS next_expiry
    FROM geocode_jobs WHERE client = ${client}`;
  const [store] = await sql<Array<{ bytes: number }>>`SELECT COALESCE(SUM(GREATEST(bytes, ${minJobBytes})), 0)::float8 AS bytes FROM geocode_jobs`;
  return { clientPointsWaiting: own!.points_waiting, clientBytes: own!.bytes, clientNextExpiry: own!.next_expiry, storeBytes: store!.bytes };
}

/** Which of `columns` `table` lacks: an ALTER only where one is missing, since even `ADD COLUMN IF NOT EXISTS` waits for and takes the table's exclusive lock. */
async function missingColumns(sql: TransactionSql, table: string, columns: readonly string[]): Promise<Set<string>> {
  const present = await sql<Array<{ column_name: string }>>`
    SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table}`;
  const names = new Set(present.map((row) => row.column_name));
  return new Set(columns.filter((column) => !names.has(column)));
}

async function indexExists(sql: TransactionSql, name: string): Promise<boolean> {
  const [row] = await sql<Array<{ found: boolean }>>`SELECT to_regclass(${name}) IS NOT NULL AS found`;
  return row!.found;
}
