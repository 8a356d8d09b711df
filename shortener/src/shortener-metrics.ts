import { declareMetrics, type MetricsRegistry } from "@linkgeo/shared";
import type { CacheObserver } from "./cache/fail-soft-link-cache.ts";
import type { ThreatObserver } from "./threats/threat-feeds.ts";
import type { RecheckObserver } from "./threats/threat-recheck.ts";
import type { ReportObserver } from "./threats/reports.ts";
import type { VisitCounterObserver } from "./visits/visit-counter.ts";
import { visitMetrics } from "./visits/visit-metrics.ts";

/** What the app reports besides visits and the cache: link changes, database failures, quarantines and reports. */
export interface AppObserver extends RecheckObserver, ReportObserver {
  linkChanged(change: "created" | "updated" | "deleted"): void;
  /** A redirect sent its visitor on, on this domain: `default`, or an added domain's host (a list admins make, so bounded). */
  redirected(domain: string): void;
  /** A database failure a client got as a 503 (down, full, read-only, I/O). */
  databaseFailed(): void;
}

export type ShortenerMetrics = VisitCounterObserver & CacheObserver & AppObserver & ThreatObserver;

/**
 * The shortener's own metrics, beside the HTTP ones: the VisitCounter's
 * (visitMetrics), the link cache's reads and failures, links created,
 * updated and deleted, database failures answered 503, redirects by
 * domain, the threat feeds' entries and matches by list, the links the
 * threat recheck quarantined and let go, and reports and what admins did
 * with them. Label values are fixed lists, the domains admins added, or the
 * files of THREAT_FEEDS (and `banned`, the ban list).
 */
export function shortenerMetrics(registry: MetricsRegistry): ShortenerMetrics {
  const declare = declareMetrics(registry);
  const cacheReads = declare.counter("shortener_cache_reads_total", "Link cache reads, by outcome: hit (a URL, or a code known missing) or miss.", ["outcome"]);
  const cacheErrors = declare.counter("shortener_cache_errors_total", "Link cache operations that failed (the database answered instead), by operation.", [
    "operation",
  ]);
  const links = declare.counter("shortener_links_changed_total", "Links created, updated and deleted.", ["change"]);
  const database = declare.counter("shortener_database_errors_total", "Database failures a client got as a 503 (down, full, read-only, I/O).");
  const redirects = declare.counter(
    "shortener_redirects_by_domain_total",
    "Redirects that sent their visitor on, by domain: default, or the host of a domain admins added.",
    ["domain"],
  );
  const threatEntries = declare.gauge("shortener_threat_list_entries", "Entries of each threat feed (THREAT_FEEDS) as last loaded, by list.", ["list"]);
  const threatMatches = declare.counter(
    "shortener_threat_matches_total",
    "Destinations a threat feed listed, by list: each a create, change or import row refused.",
    ["list"],
  );
  const quarantines = declare.counter(
    "shortener_quarantines_total",
    "Links the threat recheck quarantined, by the list that named their destination (a THREAT_FEEDS file, or banned).",
    ["list"],
  );
  const releases = declare.counter("shortener_quarantine_releases_total", "Links the threat recheck let go: no list names their destinations any longer.");
  const reports = declare.counter("shortener_reports_total", "Reports of harmful links received, by reason.", ["reason"]);
  const reportActions = declare.counter("shortener_report_actions_total", "What admins did with reports, by action.", ["action"]);
  return {
    ...visitMetrics(registry),
    quarantined: (list) => quarantines.labels(list).inc(),
    released: () => releases.inc(),
    reported: (reason) => reports.labels(reason).inc(),
    resolved: (action) => reportActions.labels(action).inc(),
    listLoaded: (list, entries) => threatEntries.labels(list).set(entries),
    matched: (list) => threatMatches.labels(list).inc(),
    cacheRead: (outcome) => cacheReads.labels(outcome).inc(),
    cacheFailed: (operation) => cacheErrors.labels(operation).inc(),
    linkChanged: (change) => links.labels(change).inc(),
    databaseFailed: () => database.inc(),
    redirected: (domain) => redirects.labels(domain).inc(),
  };
}
