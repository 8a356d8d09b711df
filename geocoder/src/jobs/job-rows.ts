import type { ForwardQuery } from "../providers/forward-query.ts";
import type { ClaimedPoint, JobKind, JobRecord, PointId, PointResult, StoredPoint } from "./job-store.ts";

// The rows both engines keep jobs and points in, and how each becomes what the JobStore port answers. Imported as a
// namespace (`rows.jobRecordOf`) by each engine's store.

/** A job's row as both engines keep it: the record's counts and words, its instants (ms since the epoch) in snake case. */
export interface JobRow extends Pick<JobRecord, "kind" | "status" | "platform" | "language" | "total" | "done" | "failed"> {
  created_at: number;
  finished_at: number | null;
  expires_at: number | null;
}

/**
 * How a running job's status is kept: a forward job's as `forwarding`, which replicas of a version before forward
 * jobs never claim (they would ask its queries as points, and fail every one), cancel or count; read back as
 * `running`. Every statement about running jobs names both (`runningSql`).
 */
export const runningStatus: Record<JobKind, string> = { reverse: "running", forward: "forwarding" };

/** SQL: the job (`alias.` before its columns, when given) runs, whatever its kind. */
export function runningSql(alias = ""): string {
  return `${alias}status IN ('running', 'forwarding')`;
}

export function jobRecordOf(row: JobRow): JobRecord {
  return {
    kind: row.kind,
    status: (row.status as string) === runningStatus.forward ? "running" : row.status,
    platform: row.platform,
    language: row.language,
    total: row.total,
    done: row.done,
    failed: row.failed,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
    expiresAt: row.expires_at,
  };
}

/** A point's id as both engines store it: JSON, so a number stays a number and the string "7" a string. */
export function storedId(id: PointId): string | null {
  return id === null ? null : JSON.stringify(id);
}

function idFromStore(text: string | null): PointId {
  if (text === null) return null;
  const id = JSON.parse(text) as unknown;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** A forward query as both engines store it: its JSON. */
export function storedQuery(query: ForwardQuery | undefined): string | null {
  return query === undefined ? null : JSON.stringify(query);
}

function queryFromStore(text: string | null): ForwardQuery | null {
  return text === null ? null : (JSON.parse(text) as ForwardQuery);
}

/** A point's row as both engines keep it. */
export interface PointRow {
  idx: number;
  point_id: string | null;
  latitude: number | null;
  longitude: number | null;
  query: string | null;
  result: string | null;
}

export function storedPointOf(row: PointRow): StoredPoint {
  return {
    index: row.idx,
    id: idFromStore(row.point_id),
    latitude: row.latitude,
    longitude: row.longitude,
    query: queryFromStore(row.query),
    result: row.result === null ? null : (JSON.parse(row.result) as PointResult),
  };
}

/** The results a completion wrote, counted per job: what each job's `done`, `failed` and `bytes` (`resultBytesChange`) move by. */
export function countsPerJob(written: Iterable<{ job: string; failed: boolean; bytes: number }>): Map<string, { done: number; failed: number; bytes: number }> {
  const perJob = new Map<string, { done: number; failed: number; bytes: number }>();
  for (const { job, failed, bytes } of written) {
    const counts = perJob.get(job) ?? { done: 0, failed: 0, bytes: 0 };
    counts.done += 1;
    if (failed) counts.failed += 1;
    counts.bytes += bytes;
    perJob.set(job, counts);
  }
  return perJob;
}

/** A job's row as a claim reads it. */
export interface ClaimJobRow {
  id_hash: string;
  kind: JobKind;
  platform: string | null;
  language: string | null;
}

/** A waiting point's row as a claim reads it: a reverse job's has its coordinates, a forward job's its query. */
export interface ClaimPointRow {
  idx: number;
  latitude: number | null;
  longitude: number | null;
  query: string | null;
}

/** The query of a claimed point: its forward query, or null for a point of coordinates. */
export function claimedQuery(point: ClaimedPoint): ForwardQuery | null {
  return point.kind === "forward" ? point.query : null;
}

/** A point a claim took, with its job's kind, platform and language. */
export function claimedPoint(job: ClaimJobRow, point: ClaimPointRow): ClaimedPoint {
  const common = { job: job.id_hash, index: point.idx, platform: job.platform, language: job.language };
  if (job.kind === "forward") return { ...common, kind: "forward", query: queryFromStore(point.query)! };
  return { ...common, kind: "reverse", latitude: point.latitude!, longitude: point.longitude! };
}
