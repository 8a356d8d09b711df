import type { AdminStore } from "../admins/admin-store.ts";
import type { LinkStore } from "../links/link-store.ts";
import type { VisitStore } from "../visits/visit-store.ts";

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

/**
 * `run`, or DatabaseTimeout once `timeoutMs` has passed, whichever comes
 * first. `run` gets a signal that aborts at the deadline, so a store can
 * give up a write it has not committed yet. A call still running at the
 * deadline is left to finish in the background (postgres.js has no way to
 * take a query back from a connection that went silent); its late result is
 * dropped.
 */
export async function withDeadline<T>(timeoutMs: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: Timer | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const timeout = new DatabaseTimeout(timeoutMs);
      controller.abort(timeout);
      reject(timeout);
    }, timeoutMs);
  });
  const call = run(controller.signal);
  // A call that fails after the deadline won must not become an unhandled rejection.
  call.catch(() => {});
  try {
    return await Promise.race([call, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The stores with a deadline on every call, so a database that hangs (frozen
 * connections, a lock never released) costs a request a 503 after
 * `timeoutMs`, not an answer that never comes. `recordVisits` is passed
 * through: the VisitCounter gives each batch its own deadline and tells the
 * store, which must not commit once it has passed.
 */
export function storesWithDeadline(
  stores: { links: LinkStore; admins: AdminStore; visits: VisitStore },
  timeoutMs: number,
): { links: LinkStore; admins: AdminStore; visits: VisitStore } {
  const { links, admins, visits } = stores;
  const bounded = <A extends unknown[], T>(call: (...args: A) => Promise<T>) => (...args: A) => withDeadline(timeoutMs, () => call(...args));
  return {
    links: {
      insert: bounded((link) => links.insert(link)),
      find: bounded((code) => links.find(code)),
      updateLongUrl: bounded((code, longUrl, at) => links.updateLongUrl(code, longUrl, at)),
      delete: bounded((code) => links.delete(code)),
      list: bounded((query) => links.list(query)),
      recordVisits: (counts, at, signal) => links.recordVisits(counts, at, signal),
    },
    admins: {
      insert: bounded((admin) => admins.insert(admin)),
      find: bounded((username) => admins.find(username)),
    },
    visits: {
      buckets: bounded((scope, from, to) => visits.buckets(scope, from, to)),
      facts: bounded((scope, fromDay, toDay) => visits.facts(scope, fromDay, toDay)),
      topLinks: bounded((from, to, limit) => visits.topLinks(from, to, limit)),
      // A background job, not a request: it sets its own limits.
      foldHoursBefore: (before) => visits.foldHoursBefore(before),
    },
  };
}
