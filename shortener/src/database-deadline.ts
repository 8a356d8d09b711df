import { withDeadline } from "@linkgeo/shared";

/**
 * The deadline of a database call: the stores put it around every call
 * (storage/stores-with-deadline.ts) and the VisitCounter around each batch
 * of visits it writes. Below both, so neither reaches into the other.
 */

/** How long a database call may take before its request is answered 503 (DATABASE_TIMEOUT_MS). */
export const defaultDatabaseTimeoutMs = 3_000;

/** The database gave no answer in time; `storageUnavailable` makes it a 503. */
export class DatabaseTimeout extends Error {
  readonly code = "DATABASE_TIMEOUT";

  constructor(timeoutMs: number) {
    super(`the database gave no answer within ${timeoutMs} ms`);
    this.name = "DatabaseTimeout";
  }
}

/** `run` under the database deadline: past it, DatabaseTimeout (and `run`'s signal aborts). */
export function withDatabaseDeadline<T>(timeoutMs: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return withDeadline(timeoutMs, run, () => new DatabaseTimeout(timeoutMs));
}
