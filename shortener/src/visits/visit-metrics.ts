import type { MetricsRegistry } from "@linkgeo/shared";
import { Counter, Histogram } from "prom-client";
import type { VisitCounterObserver } from "./visit-counter.ts";

/**
 * The VisitCounter's writes as Prometheus metrics: redirects counted (the
 * visits of existing links, committed), visits per write (the group
 * commit's batch size), each write's time, and the writes that failed.
 */
export function visitMetrics(registry: MetricsRegistry): VisitCounterObserver {
  const registers = [registry];
  const redirects = new Counter({ name: "shortener_redirects_counted_total", help: "Redirects whose visit was committed (links that exist).", registers });
  const batchSize = new Histogram({
    name: "shortener_visit_batch_size",
    help: "Visits written in one commit (the group commit's batch).",
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000],
    registers,
  });
  const commitSeconds = new Histogram({
    name: "shortener_visit_commit_seconds",
    help: "Time of one visit write, from its start to its commit (or failure).",
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 3],
    registers,
  });
  const failures = new Counter({
    name: "shortener_visit_batch_failures_total",
    help: "Visit writes that failed; their visits were answered with an error and not counted.",
    registers,
  });
  return {
    written({ visits, counted, seconds }) {
      redirects.inc(counted);
      batchSize.observe(visits);
      commitSeconds.observe(seconds);
    },
    failed({ visits, seconds }) {
      failures.inc();
      batchSize.observe(visits);
      commitSeconds.observe(seconds);
    },
  };
}
