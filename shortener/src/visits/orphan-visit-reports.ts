import { InvalidRequest } from "@linkgeo/shared";
import { otherValue } from "./named-values.ts";
import type { OrphanKindCount, OrphanScope, OrphanVisitStore } from "./orphan-visit-store.ts";
import { bucketStart, granularityMs, parseVisitRange, utcDay, type VisitRange } from "./visit-range.ts";
import { noNumbers, topListSize, type Analytics, type NoNumbers, type SeriesPoint, type TopEntry, type Totals } from "./visit-reports.ts";

interface OrphanReportQuery {
  from: string;
  to: string;
  granularity: "day";
}

export type OrphanVisitReport =
  | (OrphanReportQuery & {
      analytics: "on";
      totals: Totals;
      series: SeriesPoint[];
      top: { referrers: TopEntry[]; kinds: OrphanKindCount[] };
    })
  | (OrphanReportQuery & NoNumbers);

/**
 * The range of `?from=&to=`, read as for every visits report, by day only:
 * these visits are counted per UTC day, and a series by hour would put a
 * whole day at its midnight. `granularity=hour` is refused (400) rather
 * than answered by day under another name.
 */
export function parseOrphanVisitRange(query: { from?: string; to?: string; granularity?: string }, now: Date): VisitRange {
  const range = parseVisitRange(query, now);
  if (range.granularity !== "day") throw InvalidRequest.because("granularity must be day: visits that lead nowhere are counted per UTC day");
  return range;
}

/**
 * The report of visits that led nowhere, in the visits report's shape:
 * totals, a series with every UTC day the range touches (0 where nothing
 * happened), and the top referrers (the 10 with the most visits, then
 * "other" for the rest and for what a day did not name) and the kinds.
 * With analytics off none are counted: it says so and has no numbers.
 */
export class OrphanVisitReports {
  constructor(
    private readonly store: Pick<OrphanVisitStore, "snapshot">,
    private readonly analytics: Analytics = "on",
  ) {}

  /** The report over `range`, of the domain of id `domainId`, or of every domain when it is absent. */
  async report(range: VisitRange, domainId?: number): Promise<OrphanVisitReport> {
    if (this.analytics === "off") return { from: range.from.toISOString(), to: range.to.toISOString(), granularity: "day", ...noNumbers };
    const scope: OrphanScope = { fromDay: utcDay(range.from), toDay: utcDay(range.to), domainId };
    const [days, breakdowns] = await this.store.snapshot((reads) => Promise.all([reads.days(scope), reads.breakdowns(scope, topListSize)]));
    const first = bucketStart(range.from, "day");
    const series: SeriesPoint[] = [];
    for (let t = first; t <= bucketStart(range.to, "day"); t += granularityMs.day) series.push({ t: new Date(t).toISOString(), visits: 0, humans: 0, bots: 0 });
    const totals: Totals = { visits: 0, humans: 0, bots: 0 };
    for (const day of days) {
      const point = series[(Date.parse(`${day.day}T00:00:00Z`) - first) / granularityMs.day];
      if (!point) continue;
      point.humans = day.humans;
      point.bots = day.bots;
      point.visits = day.humans + day.bots;
      totals.humans += day.humans;
      totals.bots += day.bots;
      totals.visits += point.visits;
    }
    const referrers = breakdowns.referrers.map(({ value, visits }) => ({ value, visits }));
    // The rest: whatever the named referrers do not account for, "other" rows included.
    const rest = totals.visits - referrers.reduce((sum, entry) => sum + entry.visits, 0);
    return {
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      granularity: "day",
      analytics: "on",
      totals,
      series,
      top: {
        referrers: rest > 0 ? [...referrers, { value: otherValue, visits: rest }] : referrers,
        kinds: breakdowns.kinds.map(({ value, visits }) => ({ value, visits })),
      },
    };
  }
}
