import type { Dimension } from "./link-visits.ts";

/** Visits that started in one bucket: an hour, or a whole UTC day once folded (`hours` 24). */
export interface VisitBucket {
  startsAt: Date;
  hours: 1 | 24;
  humans: number;
  bots: number;
}

/** Visits with one value of one breakdown, and the bots among them. */
export interface FactCount {
  dimension: Dimension;
  value: string;
  visits: number;
  bots: number;
}

/** Visits with one value of one breakdown on one UTC day, and the bots among them. */
export interface FactDay {
  /** YYYY-MM-DD */
  day: string;
  visits: number;
  bots: number;
}

/** A link's visits on one UTC day. */
export interface DailyCount {
  code: string;
  /** YYYY-MM-DD */
  day: string;
  visits: number;
}

/** One link, or every link (`code` undefined). */
export interface VisitScope {
  code?: string;
}

/**
 * Reads of the analytics that `LinkStore.recordVisits` writes, and their
 * upkeep. A redirect's write only logs its visits (visit-log.ts); every read
 * first sums what the log holds, so it counts every visit that was
 * answered before it began. A link's reads use its own rows; every link's (scope `{}`, and
 * topLinks) read the finished days from sums of every link kept by
 * `rollUpBefore`, and only the days since from the per-link rows, so their
 * cost grows with days, not with links. One implementation per engine; both
 * pass the same suite.
 */
/** The reads of a report, as `VisitStore.snapshot` hands them over. */
export type VisitReads = Pick<VisitStore, "buckets" | "facts" | "factDays" | "dailyCounts" | "topLinks">;

export interface VisitStore {
  /** Buckets starting in [from, to), oldest first; for every link, summed per start. */
  buckets(scope: VisitScope, from: Date, to: Date): Promise<VisitBucket[]>;
  /** Visits per breakdown and value over the UTC days [fromDay, toDay] (YYYY-MM-DD, inclusive). */
  facts(scope: VisitScope, fromDay: string, toDay: string): Promise<FactCount[]>;
  /** The visits with one value of one breakdown per UTC day over [fromDay, toDay] (inclusive); days without any are left out. */
  factDays(scope: VisitScope, dimension: Dimension, value: string, fromDay: string, toDay: string): Promise<FactDay[]>;
  /** Visits per link and UTC day of buckets starting in [from, to), for these links only, in one query; days without visits are left out. */
  dailyCounts(codes: readonly string[], from: Date, to: Date): Promise<DailyCount[]>;
  /** The links with the most visits in buckets starting in [from, to), most first, at most `limit`. */
  topLinks(from: Date, to: Date, limit: number): Promise<Array<{ code: string; visits: number }>>;
  /**
   * `read` with reads that all see one state of the database: a report's
   * series, breakdowns and top links add up however many visits are
   * written meanwhile. The log is summed once, first. On Postgres the reads
   * are one REPEATABLE READ, READ ONLY transaction (on a read replica too);
   * on SQLite they run back to back on the service's one connection.
   */
  snapshot<T>(read: (reads: VisitReads) => Promise<T>): Promise<T>;
  /**
   * One replica's turn at the visit log: sums what it holds into the
   * buckets and breakdowns, a step (visitLogRowsPerStep rows) per
   * transaction, until a step finds fewer left. Returns the rows summed; 0
   * when the log was empty or another replica is summing right now.
   */
  sumVisitLog(): Promise<number>;
  /**
   * Sums every finished day before `before` (a UTC midnight) that is not
   * summed yet into the every-link tables (visit-rollups.ts), a few days per
   * transaction (the engine's step), so the every-link reads touch a row per hour or day rather
   * than per link. Returns how many days it summed; 0 when none were left
   * or another replica is summing right now.
   */
  rollUpBefore(before: Date): Promise<number>;
  /**
   * Folds every 1-hour bucket that starts before `before` (a UTC midnight)
   * into one bucket per link and UTC day, in one transaction, so no total
   * ever changes. Returns how many hour buckets went; 0 when another
   * replica is folding right now.
   */
  foldHoursBefore(before: Date): Promise<number>;
}
