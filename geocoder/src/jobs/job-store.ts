import type { Address } from "../addresses/address.ts";
import type { PlaceResult } from "../geocoding/batch-points.ts";
import type { ForwardQuery } from "../providers/forward-query.ts";
import type { JobQuota, JobUsage, QuotaRefusal } from "./job-quota.ts";

/** A job runs until every point has its result, or until it is cancelled. */
export type JobStatus = "running" | "done" | "cancelled";

/** What a job's points ask: addresses at coordinates (`reverse`), or places for a name (`forward`, its points queries). */
export type JobKind = "reverse" | "forward";

/** A point's own id, echoed in its result. */
export type PointId = string | number | null;

/** What a point ended with: its addresses, or its own error, as a batch answers a point. */
export interface PointResult {
  /** Addresses at the point (reverse), or places for the query (forward). */
  data: Address[] | PlaceResult[];
  error: ({ code: string; message: string; index: number } & Record<string, unknown>) | null;
  provider: string | null;
  cache: "L1" | "L2" | "MISS" | null;
}

/**
 * A point as a job keeps it: coordinates checked when the job was made (null for a point that failed the check, whose
 * result is then its error), or a forward job's query (then no coordinates).
 */
export interface JobPointInput {
  id: PointId;
  latitude: number | null;
  longitude: number | null;
  /** A forward job's query, checked (absent for a refused one, whose result is its error). */
  query?: ForwardQuery;
  /** Set for a point refused when the job was made. */
  result?: PointResult;
}

export interface NewJob {
  /** SHA-256 (hex) of the job's id: the id itself is a capability, never stored. */
  idHash: string;
  kind: JobKind;
  platform: string | null;
  language: string | null;
  points: readonly JobPointInput[];
  createdAt: number;
  /** Who made it, as the quotas count clients: a digest of the client's address (`jobClientDigest`), never the address. */
  client: string;
}

export interface JobRecord {
  kind: JobKind;
  status: JobStatus;
  platform: string | null;
  language: string | null;
  total: number;
  /** Points with their result: an answer or an error. */
  done: number;
  /** Of those, the points with an error. */
  failed: number;
  createdAt: number;
  /** When the last point got its result, or the job was cancelled. */
  finishedAt: number | null;
  /** A finished job and its results are deleted then. */
  expiresAt: number | null;
}

/** A point a replica took to answer, under a lease: its coordinates, or a forward job's query. */
export type ClaimedPoint = {
  job: string;
  index: number;
  platform: string | null;
  language: string | null;
} & ({ kind: "reverse"; latitude: number; longitude: number } | { kind: "forward"; query: ForwardQuery });

/** One point of a job's results, in order; `result` null while it waits. */
export interface StoredPoint {
  index: number;
  id: PointId;
  latitude: number | null;
  longitude: number | null;
  /** A forward job's query (null for a reverse job's point, or a query refused when the job was made). */
  query: ForwardQuery | null;
  result: PointResult | null;
}

/**
 * Where jobs are kept, shared by every replica that runs them: SQLite
 * beside L2 (replicas on one machine share the file), or Postgres. A
 * point is taken under a lease; its result is written only by the replica
 * holding the lease, once, so a point is answered exactly once however
 * many replicas run and die. One implementation per engine; both pass the
 * same suite.
 */
export interface JobStore {
  /**
   * Keeps a new job, unless it would take its client or the store past
   * `quota`: then nothing of it is written and the refusal says why. The
   * check and the keeping are one step for every replica on the store (two
   * jobs made at once cannot both pass on the same room). A job whose every
   * point was refused is done at once, and expires `ttlMs` later.
   */
  create(job: NewJob, ttlMs: number, quota: JobQuota): Promise<QuotaRefusal | undefined>;
  /** What `client`'s jobs and the whole store hold at `now` (job-quota.ts), as `create` counts it. */
  usage(client: string, now: number): Promise<JobUsage>;
  find(idHash: string): Promise<JobRecord | undefined>;
  /**
   * Up to `limit` points of running jobs that wait (no lease, or one that
   * ran out), oldest job first and in order, leased to `owner` until
   * `now + leaseMs`.
   */
  claim(owner: string, limit: number, now: number, leaseMs: number): Promise<ClaimedPoint[]>;
  /** Extends `owner`'s lease on these points (still its own) to `until`. */
  renew(owner: string, points: readonly ClaimedPoint[], until: number): Promise<void>;
  /** Gives back `owner`'s lease on these points (still its own, not answered): another claim may take them at once. */
  release(owner: string, points: readonly ClaimedPoint[]): Promise<void>;
  /**
   * Writes the results of points `owner` still holds, adds them to their
   * jobs' counts, and finishes a job whose last point this was (expiring
   * `ttlMs` later). A point whose lease went to another replica, or whose
   * job was cancelled or deleted, is left as it is. Returns the results
   * written.
   */
  complete(owner: string, results: ReadonlyArray<{ point: ClaimedPoint; result: PointResult }>, now: number, ttlMs: number): Promise<number>;
  /** Cancels a running job (its points left are never asked); returns it as it now is, or undefined when there is none. */
  cancel(idHash: string, now: number, ttlMs: number): Promise<JobRecord | undefined>;
  /** Up to `limit` points of a job after `afterIndex` (-1: from the first), in order. */
  points(idHash: string, afterIndex: number, limit: number): Promise<StoredPoint[]>;
  /** Deletes the jobs (and their points) that expired before `now`; returns how many. */
  deleteExpired(now: number): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
