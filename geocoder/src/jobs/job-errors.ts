import { HttpError } from "@linkgeo/shared";
import type { QuotaRefusal } from "./job-quota.ts";

/** 404 `not_found`: no job has this id, or it expired (the message says which may be the case, never which it is). */
export class JobNotFound extends HttpError {
  private constructor() {
    super(404, "not_found", "no geocoding job has this id (a finished job is deleted once it expires)");
  }

  static forId(): JobNotFound {
    return new JobNotFound();
  }
}

/** A size as the messages say it: whole MiB, or KiB below one (rounded up: never less than it is). */
const sizeOf = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.ceil(bytes / (1024 * 1024))} MiB` : `${Math.ceil(bytes / 1024)} KiB`);

/**
 * 429 `quota_exceeded` with `Retry-After`: the client's jobs already hold
 * what it may have; other clients are served. The details say which quota,
 * its limit, what the client's jobs hold and what this job would add.
 */
export class JobQuotaExceeded extends HttpError {
  private constructor(message: string, retryAfterSeconds: number, details: Record<string, unknown>) {
    super(429, "quota_exceeded", message, { headers: { "retry-after": String(retryAfterSeconds) }, details });
  }

  static pointsWaiting(refusal: Extract<QuotaRefusal, { kind: "points_waiting" }>): JobQuotaExceeded {
    return new JobQuotaExceeded(
      `your jobs have ${refusal.waiting} points waiting and this one would add ${refusal.adding}, over the ${refusal.limit} a client may have waiting: ` +
        "send it once they are answered (their progress says when), or cancel one",
      refusal.retryAfterSeconds,
      { quota: "points_waiting", limit: refusal.limit, in_use: refusal.waiting, requested: refusal.adding },
    );
  }

  static bytesKept(refusal: Extract<QuotaRefusal, { kind: "bytes_kept" }>): JobQuotaExceeded {
    return new JobQuotaExceeded(
      `your jobs keep ${sizeOf(refusal.kept)} and this one would add ${sizeOf(refusal.adding)}, over the ${sizeOf(refusal.limit)} a client may keep: ` +
        "a job's share is freed when it expires (Retry-After: when your first one does)",
      refusal.retryAfterSeconds,
      { quota: "bytes_kept", limit: refusal.limit, in_use: refusal.kept, requested: refusal.adding },
    );
  }
}

/** 507 `insufficient_storage`: all jobs together hold what the store may keep, or its disk is nearly full; no job is kept until older ones expire. */
export class JobStoreFull extends HttpError {
  private constructor() {
    super(507, "insufficient_storage", "the geocoding jobs' store is full: no new job can be kept until older ones expire; send it later, or as batches");
  }

  static now(): JobStoreFull {
    return new JobStoreFull();
  }
}

/** 413 `payload_too_large`: a job charged more than a client may keep at all. */
export class JobTooLarge extends HttpError {
  private constructor(bytes: number, limit: number) {
    super(413, "payload_too_large", `this job would keep ${sizeOf(bytes)}, more than the ${sizeOf(limit)} a client may keep: send it as smaller jobs`);
  }

  static over(refusal: Extract<QuotaRefusal, { kind: "job_too_large" }>): JobTooLarge {
    return new JobTooLarge(refusal.bytes, refusal.limit);
  }
}

/** The answer to a job a quota refused. */
export function quotaError(refusal: QuotaRefusal): HttpError {
  switch (refusal.kind) {
    case "job_too_large":
      return JobTooLarge.over(refusal);
    case "points_waiting":
      return JobQuotaExceeded.pointsWaiting(refusal);
    case "bytes_kept":
      return JobQuotaExceeded.bytesKept(refusal);
    case "store_full":
    case "disk_low":
      return JobStoreFull.now();
  }
}
