import { describeError, type Logger, ServiceUnavailable } from "@linkgeo/shared";
import type { JobStore } from "./job-store.ts";

/**
 * A jobs' store opened in the background (Postgres, which may be down
 * when the geocoder starts): until `open` succeeds every call is a 503, and
 * it is tried again every `retryMs`, so single queries and batches are
 * served from the start whatever the jobs' database does. Once open, calls
 * go to the store as they are. `opened` resolves then (and never while it
 * cannot be opened), for the runner to wait for rather than fail on.
 */
export function connectingJobStore(open: () => Promise<JobStore>, options: { log: Logger; retryMs?: number }): JobStore & { opened: Promise<void> } {
  const retryMs = options.retryMs ?? 5_000;
  const opening = Promise.withResolvers<void>();
  let store: JobStore | undefined;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const attempt = async (failures: number): Promise<void> => {
    try {
      const opened = await open();
      if (closed) await opened.close();
      else {
        store = opened;
        opening.resolve();
        if (failures > 0) options.log.info("the jobs' store is reachable again");
      }
    } catch (error) {
      // Once per outage, not every few seconds.
      if (failures === 0) options.log.warn("the jobs' store cannot be opened; trying again", { error: describeError(error), retry_ms: retryMs });
      if (!closed) timer = setTimeout(() => void attempt(failures + 1), retryMs);
    }
  };
  void attempt(0);
  const opened = (): JobStore => {
    if (!store) throw ServiceUnavailable.dependency("the jobs' store");
    return store;
  };
  return {
    opened: opening.promise,
    create: async (job, ttlMs, quota) => opened().create(job, ttlMs, quota),
    usage: async (client, now) => opened().usage(client, now),
    find: async (idHash) => opened().find(idHash),
    claim: async (owner, limit, now, leaseMs) => opened().claim(owner, limit, now, leaseMs),
    renew: async (owner, points, until) => opened().renew(owner, points, until),
    release: async (owner, points) => opened().release(owner, points),
    complete: async (owner, results, now, ttlMs) => opened().complete(owner, results, now, ttlMs),
    cancel: async (idHash, now, ttlMs) => opened().cancel(idHash, now, ttlMs),
    points: async (idHash, afterIndex, limit) => opened().points(idHash, afterIndex, limit),
    deleteExpired: async (now) => opened().deleteExpired(now),
    ping: async () => opened().ping(),
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await store?.close();
    },
  };
}
