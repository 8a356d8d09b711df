/**
 * Why a visit led nowhere: no link has its code (`unknown`), the link is
 * past its expiry (`expired`), has used up its visit cap (`exhausted`), or
 * the visitor gave a wrong password (`password`).
 */
export const orphanKinds = ["unknown", "expired", "exhausted", "password"] as const;
export type OrphanKind = (typeof orphanKinds)[number];

/** Visits that led nowhere on one UTC day and domain, of one kind, from one referrer host. */
export interface OrphanCount {
  /** YYYY-MM-DD */
  day: string;
  /** The id of the domain whose host was asked (0: the default domain). */
  domainId: number;
  kind: OrphanKind;
  /** A referrer host as `referrerHost` gives it (`direct`, `unknown`, `news.example`), or "other" (named-values.ts). */
  referrer: string;
  humans: number;
  bots: number;
}

/** Visits that led nowhere on one UTC day. */
export interface OrphanDay {
  /** YYYY-MM-DD */
  day: string;
  humans: number;
  bots: number;
}

/** Visits per value of a breakdown. */
export interface OrphanValueCount {
  value: string;
  visits: number;
}

/** Visits of one kind. */
export interface OrphanKindCount extends OrphanValueCount {
  value: OrphanKind;
}

/** Which visits a read counts: the UTC days [fromDay, toDay] (inclusive, YYYY-MM-DD), of one domain or (absent) of all. */
export interface OrphanScope {
  fromDay: string;
  toDay: string;
  domainId?: number;
}

/**
 * Visits that led nowhere (orphan-visits.ts), counted per UTC day, domain,
 * kind and referrer host: never a path, a code or anything of the visitor
 * but the referrer's host and whether it was a bot. A day names at most
 * `namedValuesPerDay` referrers (over all domains and kinds); a referrer it
 * does not name yet is counted as "other", so a flood of made-up Referer
 * hosts adds to one row per domain and kind instead of a row each. One
 * implementation per engine; both pass the same suite.
 */
export interface OrphanVisitStore {
  /** Adds these counts, in one transaction; a (day, domain, kind, referrer) given twice is added twice. */
  add(counts: readonly OrphanCount[]): Promise<void>;
  /** Humans and bots per UTC day of the scope, oldest first; days without visits are left out. */
  days(scope: OrphanScope): Promise<OrphanDay[]>;
  /**
   * Over the scope: the visits of each kind (those with any, most first),
   * and the `limit` named referrers with the most visits (most first, then
   * by host in code-unit order); the rows of "other" are not a referrer and
   * are never listed.
   */
  breakdowns(scope: OrphanScope, limit: number): Promise<{ kinds: OrphanKindCount[]; referrers: OrphanValueCount[] }>;
  /** `read` with reads that all see one state of the database, as VisitStore.snapshot: a report's days and breakdowns add up. */
  snapshot<T>(read: (reads: OrphanVisitReads) => Promise<T>): Promise<T>;
}

/** The reads of the orphan visits' report, as `OrphanVisitStore.snapshot` hands them over. */
export type OrphanVisitReads = Pick<OrphanVisitStore, "days" | "breakdowns">;
