import { declareMetrics, type MetricsRegistry } from "@linkgeo/shared";
import type { CacheObserver } from "./cache/fail-soft-link-cache.ts";
import type { VisitCounterObserver } from "./visits/visit-counter.ts";
import { visitMetrics } from "./visits/visit-metrics.ts";

/** What the app reports besides visits and the cache: link changes and database failures. */
export interface AppObserver {
  linkChanged(change: "created" | "updated" | "deleted"): void;
  /** A database failure a client got as a 503 (down, full, read-only, I/O). */
  databaseFailed(): void;
}

export type ShortenerMetrics = VisitCounterObserver & CacheObserver & AppObserver;

/**
 * The shortener's own metrics, beside the HTTP ones: the VisitCounter's
 * (visitMetrics), the link cache's reads and failures, links created,
 * updated and deleted, and database failures answered 503. Label values
 * are fixed lists.
 */
export function shortenerMetrics(registry: MetricsRegistry): ShortenerMetrics {
  const declare = declareMetrics(registry);
  const cacheReads = declare.counter("shortener_cache_reads_total", "Link cache reads, by outcome: hit (a URL, or a code known missing) or miss.", ["outcome"]);
  const cacheErrors = declare.counter("shortener_cache_errors_total", "Link cache operations that failed (the database answered instead), by operation.", [
    "operation",
  ]);
  const links = declare.counter("shortener_links_changed_total", "Links created, updated and deleted.", ["change"]);
  const database = declare.counter("shortener_database_errors_total", "Database failures a client got as a 503 (down, full, read-only, I/O).");
  return {
    ...visitMetrics(registry),
    cacheRead: (outcome) => cacheReads.labels(outcome).inc(),
    cacheFailed: (operation) => cacheErrors.labels(operation).inc(),
    linkChanged: (change) => links.labels(change).inc(),
    databaseFailed: () => database.inc(),
  };
}
