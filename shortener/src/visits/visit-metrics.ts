import { declareMetrics, type MetricsRegistry } from "@linkgeo/shared";
import type { VisitCounterObserver } from "./visit-counter.ts";

/**
 * The VisitCounter's writes as Prometheus metrics: redirects counted (the
 * visits of existing links, committed), visits per write (the group
 * commit's batch size), each write's time, and the writes that failed.
 */
export function visitMetrics(registry: MetricsRegistry): VisitCounterObserver {
  const declare = declareMetrics(registry);
  const redirects = declare.counter("shortener_redirects_counted_total", "Redirects whose visit was committed (links that exist).");
  const batchSize = declare.histogram(
    "shortener_visit_batch_size",
    "Visits written in one commit (the group commit's batch).",
    [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000],
  );
  const commitSeconds = declare.histogram(
    "shortener_visit_commit_seconds",
    "Time of one visit write, from its start to its commit (or failure).",
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 3],
  );
  const failures = declare.counter(
    "shortener_visit_batch_failures_total",
    "Visit writes that failed; their visits were answered with an error and not counted.",
  );
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
