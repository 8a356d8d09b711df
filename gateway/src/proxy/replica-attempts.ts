import { ClientClosedRequest, describeError, HttpError } from "@linkgeo/shared";
import type { GatewayObserver } from "../metrics/gateway-metrics.ts";
import type { UpstreamPool } from "../upstreams/upstream-pool.ts";
import { connectionFailure } from "./connection-failure.ts";
import { UpstreamTimeout, UpstreamUnavailable } from "./upstream-errors.ts";

export interface ReplicaAttemptsOptions {
  pool: UpstreamPool;
  /** Tries at most, each on a replica not tried yet. */
  attempts: number;
  /** Aborted when the exchange's time is up; `timeoutMs` names it in the 504. */
  deadline: AbortSignal;
  timeoutMs: number;
  /** The client's connection, when there is one: once it is gone, nothing more is tried (499). */
  client?: AbortSignal;
  /** Whether a connection that failed this way may be tried again on another replica. */
  retriable: (failure: "refused" | "dropped") => boolean;
  observer?: Pick<GatewayObserver, "upstreamFailed" | "retried">;
}

/**
 * The one retry loop of the gateway (the proxy's and the redirect batch's):
 * `attempt` on a replica of the pool, and on a failed connection the replica
 * is ejected and, when `retriable` allows, another is tried. What it says
 * when nothing answers: 502 with no replica at all, 502 unreachable when
 * the replicas failed, 504 when the deadline passed, 499 when the client
 * left. An HTTP error `attempt` throws (a bad answer) ends it as it is.
 */
export async function onReplicas<T>(options: ReplicaAttemptsOptions, attempt: (replica: string) => Promise<T>): Promise<T> {
  const { pool, observer } = options;
  const tried = new Set<string>();
  for (let n = 1; n <= options.attempts; n++) {
    if (options.client?.aborted) throw ClientClosedRequest.gone();
    const replica = pool.next(tried);
    if (replica === undefined) throw n === 1 ? UpstreamUnavailable.noReplicas(pool.name) : UpstreamUnavailable.unreachable(pool.name);
    tried.add(replica);
    if (n > 1) observer?.retried(pool.name);
    try {
      return await attempt(replica);
    } catch (error) {
      if (options.client?.aborted) throw ClientClosedRequest.gone();
      if (options.deadline.aborted) {
        observer?.upstreamFailed(pool.name, replica, "timeout");
        throw UpstreamTimeout.after(pool.name, options.timeoutMs);
      }
      if (error instanceof HttpError) throw error;
      const failure = connectionFailure(error);
      if (failure === undefined) throw error;
      observer?.upstreamFailed(pool.name, replica, failure);
      pool.eject(replica, describeError(error));
      if (!options.retriable(failure)) throw UpstreamUnavailable.unreachable(pool.name);
    }
  }
  throw UpstreamUnavailable.unreachable(pool.name);
}
