import { dimensions, type Dimension } from "./link-visits.ts";
import { otherValue } from "./named-values.ts";
import { everyVisit, type ReportFilters, type ValueFilter, type Visitors } from "./report-filters.ts";
import { bucketStart, granularityMs, utcDay, type VisitRange } from "./visit-range.ts";
import type { FactCount, FactDay, VisitBucket, VisitReads, VisitScope, VisitStore } from "./visit-store.ts";

export interface Totals {
  visits: number;
  humans: number;
  bots: number;
}

export interface SeriesPoint extends Totals {
  /** The bucket's start, ISO 8601 UTC. */
  t: string;
}

export interface TopEntry {
  value: string;
  visits: number;
}

/** A value of a breakdown: its visits, humans and bots. */
export interface SplitEntry extends TopEntry {
  humans: number;
  bots: number;
}

/**
 * ANALYTICS. Off, a visit is only counted (access_count): nothing says
 * when, from where or by whom, so a report has no numbers to give and
 * answers null where they would be, never zeros that read as "nobody
 * came". What was recorded while they were on stays in the database and
 * is reported again once they are back on.
 */
export type Analytics = "on" | "off";

/** The numbers of a report with analytics off: none. */
export interface NoNumbers {
  analytics: "off";
  totals: null;
  series: null;
  top: null;
}

/** Each link's visits per UTC day, oldest first, ending today; null with analytics off. */
export interface DailyVisitsReport {
  analytics: Analytics;
  /** Start of the first day. */
  from: string;
  /** Now: today is counted so far. */
  to: string;
  days: number;
  links: Record<string, number[]> | null;
}

/** What a report answers: the range and filters asked for. */
interface ReportQuery {
  from: string;
  to: string;
  granularity: VisitRange["granularity"];
  /** Whose visits rank the top lists. */
  visitors: Visitors;
  /** The one value whose visits the series and totals count; null: every visit. */
  filter: ValueFilter | null;
}

export interface RecordedVisitReport extends ReportQuery {
  analytics: "on";
  totals: Totals;
  series: SeriesPoint[];
  /** Each breakdown's top values, and the bots by name (the browsers of bot visits). */
  top: Record<Dimension | "bots", SplitEntry[]>;
}

export type VisitReport = RecordedVisitReport | (ReportQuery & NoNumbers);

export const noNumbers: NoNumbers = { analytics: "off", totals: null, series: null, top: null };

/** How many values each top list names before the rest is summed up as "other". */
export const topListSize = 10;

/**
 * The visit reports of the API: totals, a series with every bucket of the
 * range present (0 when nothing happened), and the top values of each
 * breakdown, ranked by the visitors asked for, with the bots by name in a
 * list of their own. Totals and series come from the hourly buckets; a day
 * folded by retention shows, by hour, at its midnight. Breakdowns are kept
 * per UTC day, so the top lists cover the whole days the range touches, and
 * a series of one value's visits (`filters.only`) is by day. With
 * analytics off, every report says so and has no numbers (`Analytics`).
 */
export class VisitReports {
  constructor(
    private readonly store: VisitStore,
    private readonly analytics: Analytics = "on",
  ) {}

  /** One link's report. */
  async forLink(code: string, range: VisitRange, filters: ReportFilters = everyVisit): Promise<VisitReport> {
    if (this.analytics === "off") return { ...this.query(range, filters), ...noNumbers };
    return this.store.snapshot((reads) => this.report(reads, { code }, range, filters));
  }

  /** Every link's, with the links that had the most visits (all visitors, whatever the filters). */
  async forAllLinks(
    range: VisitRange,
    filters: ReportFilters = everyVisit,
    /** How a link is named in the top list, by its key; default: the key. */
    labelOf: (key: string) => string = (key) => key,
  ): Promise<(RecordedVisitReport & { top: { links: TopEntry[] } }) | (ReportQuery & NoNumbers)> {
    if (this.analytics === "off") return { ...this.query(range, filters), ...noNumbers };
    const [report, links] = await this.store.snapshot((reads) =>
      Promise.all([this.report(reads, {}, range, filters), reads.topLinks(...this.bucketRange(range), topListSize + 1)]),
    );
    const named = links.slice(0, topListSize).map((link) => ({ value: labelOf(link.code), visits: link.visits }));
    // The rest: whatever the named links do not account for.
    const rest = report.totals.visits - named.reduce((sum, entry) => sum + entry.visits, 0);
    return { ...report, top: { ...report.top, links: rest > 0 ? [...named, { value: "other", visits: rest }] : named } };
  }

  /**
   * The last `days` UTC days of visits of each link in `links` (named as
   * the answer names it, found by its key), today included, from the same buckets and over the same days as the visits
   * report with `from` and `to` of this answer, by day (so the numbers
   * agree). One query for every code; a code without visits is all zeros.
   */
  async dailyPerLink(links: ReadonlyArray<{ named: string; key: string }>, days: number, now: Date): Promise<DailyVisitsReport> {
    const firstDay = bucketStart(now, "day") - (days - 1) * granularityMs.day;
    if (this.analytics === "off") return { analytics: "off", from: new Date(firstDay).toISOString(), to: now.toISOString(), days, links: null };
    const end = bucketStart(now, "day") + granularityMs.day;
    const counts = await this.store.dailyCounts(
      links.map((link) => link.key),
      new Date(firstDay),
      new Date(end),
    );
    // A Map, not an object: a code is client input, and "__proto__" is a valid one.
    const perKey = new Map(links.map((link) => [link.key, new Array<number>(days).fill(0)]));
    for (const count of counts) {
      const series = perKey.get(count.code);
      const index = (Date.parse(`${count.day}T00:00:00Z`) - firstDay) / granularityMs.day;
      if (series && index >= 0 && index < days) series[index] = count.visits;
    }
    return {
      analytics: "on",
      from: new Date(firstDay).toISOString(),
      to: now.toISOString(),
      days,
      links: Object.fromEntries(links.map((link) => [link.named, perKey.get(link.key)!])),
    };
  }

  /** A report from `reads`, which see one state of the database (VisitStore.snapshot): its totals, series and top lists add up. */
  /** The range and filters a report answers, as it says them. */
  private query(range: VisitRange, { visitors, only }: ReportFilters): ReportQuery {
    return { from: range.from.toISOString(), to: range.to.toISOString(), granularity: range.granularity, visitors, filter: only };
  }

  private async report(reads: VisitReads, scope: VisitScope, range: VisitRange, filters: ReportFilters): Promise<RecordedVisitReport> {
    const { visitors, only } = filters;
    const [from, to] = this.bucketRange(range);
    const [fromDay, toDay] = [utcDay(from), utcDay(to.getTime() - 1)];
    const [buckets, facts] = await Promise.all([
      only ? reads.factDays(scope, only.breakdown, only.value, fromDay, toDay).then(dayBuckets) : reads.buckets(scope, from, to),
      reads.facts(scope, fromDay, toDay),
    ]);
    const series = this.series(buckets, range);
    return {
      ...this.query(range, filters),
      analytics: "on",
      totals: series.reduce((sum, point) => ({ visits: sum.visits + point.visits, humans: sum.humans + point.humans, bots: sum.bots + point.bots }), {
        visits: 0,
        humans: 0,
        bots: 0,
      }),
      series,
      top: {
        ...(Object.fromEntries(dimensions.map((dimension) => [dimension, topOf(facts, dimension, visitors)])) as Record<Dimension, SplitEntry[]>),
        bots: topOf(facts, "browsers", "bots"),
      },
    };
  }

  /** [start of the first bucket, end of the last) of the range. */
  private bucketRange(range: VisitRange): [Date, Date] {
    return [new Date(bucketStart(range.from, range.granularity)), new Date(bucketStart(range.to, range.granularity) + granularityMs[range.granularity])];
  }

  private series(buckets: VisitBucket[], range: VisitRange): SeriesPoint[] {
    const step = granularityMs[range.granularity];
    const first = bucketStart(range.from, range.granularity);
    const points: SeriesPoint[] = [];
    for (let t = first; t <= bucketStart(range.to, range.granularity); t += step) {
      points.push({ t: new Date(t).toISOString(), visits: 0, humans: 0, bots: 0 });
    }
    for (const bucket of buckets) {
      const point = points[(bucketStart(bucket.startsAt, range.granularity) - first) / step];
      if (!point) continue;
      point.humans += bucket.humans;
      point.bots += bucket.bots;
      point.visits += bucket.humans + bucket.bots;
    }
    return points;
  }
}

/** One value's days as day-long buckets: its humans are its visits less its bots. */
function dayBuckets(days: FactDay[]): VisitBucket[] {
  return days.map((day) => ({ startsAt: new Date(`${day.day}T00:00:00Z`), hours: 24, humans: day.visits - day.bots, bots: day.bots }));
}

/** The visits of `visitors` an entry counts. */
const countOf: Record<Visitors, (entry: SplitEntry) => number> = {
  all: (entry) => entry.visits,
  humans: (entry) => entry.humans,
  bots: (entry) => entry.bots,
};

/**
 * The values of one breakdown with the most visits of `visitors`, then
 * "other" for the rest; a value none of whose visits are of `visitors` is
 * left out. Each entry says all its visits, humans and bots, whatever the
 * ranking. A day's own "other" row (values it did not name:
 * named-values.ts) is not a value: however large, after a flood of new
 * ones, it takes none of the named places, and is added to the rest.
 */
function topOf(facts: FactCount[], dimension: Dimension, visitors: Visitors): SplitEntry[] {
  const count = countOf[visitors];
  const ofDimension = facts
    .filter((fact) => fact.dimension === dimension)
    .map((fact) => ({ value: fact.value, visits: fact.visits, humans: fact.visits - fact.bots, bots: fact.bots }))
    .filter((entry) => count(entry) > 0);
  const ranked = ofDimension.filter((entry) => entry.value !== otherValue).sort((a, b) => count(b) - count(a) || a.value.localeCompare(b.value));
  const rest = { value: otherValue, visits: 0, humans: 0, bots: 0 };
  for (const entry of [...ranked.slice(topListSize), ...ofDimension.filter((entry) => entry.value === otherValue)]) {
    rest.visits += entry.visits;
    rest.humans += entry.humans;
    rest.bots += entry.bots;
  }
  const top = ranked.slice(0, topListSize);
  return count(rest) > 0 ? [...top, rest] : top;
}
