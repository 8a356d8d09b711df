import type { MetricsRegistry } from "@linkgeo/shared";
import { Counter, Gauge, Histogram } from "prom-client";
import type { RateClass } from "../rate-limit/rate-limit-plugin.ts";
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
  /** A batch of redirects left for the shortener with `size` items. */
  batchSent(size: number): void;
}

/**
 * The gateway's own metrics. Label values are bounded: upstreams are the two
 * services, replicas the configured or resolved origins, statuses a class
 * (2xx … 5xx), rate classes the five of the route table.
 */
export function gatewayMetrics(registry: MetricsRegistry, pools: readonly UpstreamPool[]): GatewayObserver {
  const registers = [registry];
  const requests = new Counter({
    name: "gateway_upstream_requests_total",
    help: "Attempts on upstream replicas, by upstream, replica and outcome (a status class, or refused, dropped, timeout).",
    labelNames: ["upstream", "replica", "outcome"],
    registers,
  });
  const latency = new Histogram({
    name: "gateway_upstream_response_seconds",
    help: "Time from sending to a replica to its response head, by upstream.",
    labelNames: ["upstream"],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const retries = new Counter({
    name: "gateway_upstream_retries_total",
    help: "Requests sent again to another replica, by upstream.",
    labelNames: ["upstream"],
    registers,
  });
  const ejections = new Counter({
    name: "gateway_upstream_ejections_total",
    help: "Replicas left out after a failure, by upstream and replica.",
    labelNames: ["upstream", "replica"],
    registers,
  });
  const refusals = new Counter({ name: "gateway_rate_limited_total", help: "Requests refused 429, by rate-limit class.", labelNames: ["class"], registers });
  const batches = new Histogram({
    name: "gateway_redirect_batch_size",
    help: "Redirects per batch sent to the shortener.",
    buckets: [1, 2, 5, 10, 20, 50, 100],
    registers,
  });
  new Gauge({
    name: "gateway_upstream_replicas",
    help: "Replicas known per upstream (resolved from its names), ejected ones included.",
    labelNames: ["upstream"],
    registers,
    collect() {
      for (const pool of pools) this.labels(pool.name).set(pool.size);
    },
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
    batchSent(size) {
      batches.observe(size);
    },
  };
}
