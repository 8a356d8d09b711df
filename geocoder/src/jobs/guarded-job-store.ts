import { HttpError, ServiceUnavailable, withDeadline } from "@linkgeo/shared";
import type { JobStore } from "./job-store.ts";

/**
 * The jobs' store with every call bounded: one that fails, or gives no
 * answer within `timeoutMs` (a frozen Postgres, a SQLite file locked by a
 * stuck process), is a 503 service_unavailable for the request, and the
 * runner logs it and tries again; nothing waits on it for good. Making a
 * job writes up to 100,000 points: it has six times as long.
 */
export function guardedJobStore(store: JobStore, timeoutMs: number): JobStore {
  const bounded =
    <A extends unknown[], T>(call: (...args: A) => Promise<T>, ms = timeoutMs) =>
    (...args: A): Promise<T> =>
      withDeadline(
        ms,
        () => call(...args),
        () => ServiceUnavailable.dependency("the jobs' store", new Error(`no answer within ${ms} ms`)),
      ).catch((error) => {
        throw error instanceof HttpError ? error : ServiceUnavailable.dependency("the jobs' store", error);
      });
  return {
    create: bounded((job, ttlMs, quota) => store.create(job, ttlMs, quota), 6 * timeoutMs),
    usage: bounded((client, now) => store.usage(client, now)),
    find: bounded((idHash) => store.find(idHash)),
    claim: bounded((owner, limit, now, leaseMs) => store.claim(owner, limit, now, leaseMs)),
    renew: bounded((owner, points, until) => store.renew(owner, points, until)),
    release: bounded((owner, points) => store.release(owner, points)),
    complete: bounded((owner, results, now, ttlMs) => store.complete(owner, results, now, ttlMs)),
    cancel: bounded((idHash, now, ttlMs) => store.cancel(idHash, now, ttlMs)),
    points: bounded((idHash, afterIndex, limit) => store.points(idHash, afterIndex, limit)),
    deleteExpired: bounded((now) => store.deleteExpired(now)),
    ping: bounded(() => store.ping()),
    close: () => store.close(),
  };
}
