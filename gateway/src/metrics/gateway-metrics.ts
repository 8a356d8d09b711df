import { declareMetrics, type MetricsRegistry, requestSecondsBuckets } from "@linkgeo/shared";
import type { RateClass } from "../rate-limit/rate-class.ts";
import type { UpstreamPool } from "../upstreams/upstream-pool.ts";

/** What the gateway's proxy, pools, rate limit and redirect batches report. */
export interface GatewayObserver {
  /** A replica answered (the response head arrived): its status class and the time to it. */
  upstreamAnswered(upstream: string, replica: string, status: number, seconds: number): void;
  /** An attempt on a replica failed: refused, dropped, or out of time. */
  upstreamFailed(upstream: string, replica: string, failure: "refused" | "dropped" | "timeout"): void;
  /** A request (or a batch) was sent again to another replica. */
  retried(upstream: string): void;
  /** A replica was left out for a while. */
  ejected(upstream: string, replica: string): void;
  /** A request was refused 429 by its class's budget. */
  rateLimited(rateClass: RateClass): void;
  /** A request was made to wait before it went on, its class's budget nearly spent (misses). */
  slowed(rateClass: RateClass): void;
  /** A batch of redirects left for the shortener with `size` items. */
  batchSent(size: number): void;
}

/**
 * The gateway's own metrics. Label values are bounded: upstreams are the two
 * services, replicas the configured or resolved origins, statuses a class
 * (2xx … 5xx), rate classes the five of the route table.
 */
export function gatewayMetrics(registry: MetricsRegistry, pools: readonly UpstreamPool[]): GatewayObserver {
  const declare = declareMetrics(registry);
  const requests = declare.counter(
    "gateway_upstream_requests_total",
    "Attempts on upstream replicas, by upstream, replica and outcome (a status class, or refused, dropped, timeout).",
    ["upstream", "replica", "outcome"],
  );
  const latency = declare.histogram(
    "gateway_upstream_response_seconds",
    "Time from sending to a replica to its response head, by upstream.",
    requestSecondsBuckets,
    ["upstream"],
  );
  const retries = declare.counter("gateway_upstream_retries_total", "Requests sent again to another replica, by upstream.", ["upstream"]);
  const ejections = declare.counter("gateway_upstream_ejections_total", "Replicas left out after a failure, by upstream and replica.", ["upstream", "replica"]);
  const refusals = declare.counter("gateway_rate_limited_total", "Requests refused 429, by rate-limit class.", ["class"]);
  const slowdowns = declare.counter(
    "gateway_slowed_total",
    "Requests made to wait before they went on, their class's budget nearly spent (misses: a client guessing codes), by class.",
    ["class"],
  );
  const batches = declare.histogram("gateway_redirect_batch_size", "Redirects per batch sent to the shortener.", [1, 2, 5, 10, 20, 50, 100]);
  declare.gauge("gateway_upstream_replicas", "Replicas known per upstream (resolved from its names), ejected ones included.", ["upstream"], (gauge) => {
    for (const pool of pools) gauge.labels(pool.name).set(pool.size);
  });
  return {
    upstreamAnswered(upstream, replica, status, seconds) {
      requests.labels(upstream, replica, `${Math.floor(status / 100)}xx`).inc();
      latency.labels(upstream).observe(seconds);
    },
    upstreamFailed(upstream, replica, failure) {
      requests.labels(upstream, replica, failure).inc();
    },
    retried(upstream) {
      retries.labels(upstream).inc();
    },
    ejected(upstream, replica) {
      ejections.labels(upstream, replica).inc();
    },
    rateLimited(rateClass) {
      refusals.labels(rateClass).inc();
    },
    slowed(rateClass) {
      slowdowns.labels(rateClass).inc();
    },
    batchSent(size) {
      batches.observe(size);
    },
  };
}
