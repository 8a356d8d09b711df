/**
 * How much a client's jobs, and all jobs together, may hold (GEOCODER_JOB_CLIENT_MAX_POINTS,
 * GEOCODER_JOB_CLIENT_MAX_MIB, GEOCODER_JOBS_MAX_MIB, GEOCODER_JOBS_MIN_FREE_MIB), in points and in
 * bytes as job-size.ts charges them.
 */
export interface JobQuota {
  /** Points a client's running jobs may have waiting for an answer. */
  clientPoints: number;
  /** Bytes a client's jobs may keep, running or finished, until they expire. */
  clientBytes: number;
  /** Bytes every job together may keep, until deleted (an expired job the next pruning has not reached yet included). */
  storeBytes: number;
  /** Where the store can see its disk (a SQLite file): the free bytes a new job may not take it below. */
  diskFloorBytes: number;
}

/** What a client's jobs and the store hold at one moment: the figures a quota is held against. */
export interface JobUsage {
  /** The client's points still waiting, in running jobs (and, on Postgres, jobs being made). */
  clientPointsWaiting: number;
  /** Bytes charged for the client's jobs that have not expired. */
  clientBytes: number;
  /** When the first of those expires; null while none has finished. */
  clientNextExpiry: number | null;
  /** Bytes charged for every job still in the store. */
  storeBytes: number;
  /** Free bytes on the store's disk, where it can see it (a SQLite file); undefined elsewhere. */
  diskFreeBytes?: number;
}

/** What a new job would add: its charge, and its points that wait for an answer. */
export interface JobShare {
  bytes: number;
  waiting: number;
}

/** Why a job is not kept. */
export type QuotaRefusal =
  | { kind: "job_too_large"; bytes: number; limit: number }
  | { kind: "points_waiting"; waiting: number; adding: number; limit: number; retryAfterSeconds: number }
  | { kind: "bytes_kept"; kept: number; adding: number; limit: number; retryAfterSeconds: number }
  | { kind: "store_full" }
  | { kind: "disk_low" };

/**
 * How long a client over its points is asked to wait: its points are
 * answered at the providers' pace, which nothing here can foresee; its
 * jobs' progress tells when they are done, and cancelling one frees its
 * points at once.
 */
export const pointsRetryAfterSeconds = 60;

/**
 * The quotas held against `usage` for a job adding `share`, the client's
 * own first (the refusal names what it can change and when), then the
 * store's: undefined when the job may be kept. A client over its bytes is
 * told to come back when its first job expires (the earliest its share can
 * shrink; a running job's share is kept `ttlMs` after it ends).
 */
export function quotaRefusal(usage: JobUsage, share: JobShare, quota: JobQuota, at: { now: number; ttlMs: number }): QuotaRefusal | undefined {
  if (share.bytes > quota.clientBytes) return { kind: "job_too_large", bytes: share.bytes, limit: quota.clientBytes };
  if (usage.clientPointsWaiting + share.waiting > quota.clientPoints) {
    return {
      kind: "points_waiting",
      waiting: usage.clientPointsWaiting,
      adding: share.waiting,
      limit: quota.clientPoints,
      retryAfterSeconds: pointsRetryAfterSeconds,
    };
  }
  if (usage.clientBytes + share.bytes > quota.clientBytes) {
    const freedAt = usage.clientNextExpiry ?? at.now + at.ttlMs;
    return {
      kind: "bytes_kept",
      kept: usage.clientBytes,
      adding: share.bytes,
      limit: quota.clientBytes,
      retryAfterSeconds: Math.max(1, Math.ceil((freedAt - at.now) / 1000)),
    };
  }
  if (usage.storeBytes + share.bytes > quota.storeBytes) return { kind: "store_full" };
  if (usage.diskFreeBytes !== undefined && usage.diskFreeBytes - share.bytes < quota.diskFloorBytes) return { kind: "disk_low" };
  return undefined;
}
