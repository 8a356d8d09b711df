import { granularityMs } from "./visit-range.ts";

/** Milliseconds since the epoch, [from, to); empty when from == to. */
export interface Span {
  from: number;
  to: number;
}

/** Half-open UTC days, YYYY-MM-DD: [fromDay, toDay). */
export interface DaySpan {
  fromDay: string;
  toDay: string;
}

/**
 * How long after a UTC midnight its day counts as finished and is summed:
 * a visit is written at most two database deadlines after it happened, and
 * replicas' clocks may differ a little. A visit written later than this
 * into a summed day reaches its link's report, not the every-link one.
 */
export const rollupGraceMs = granularityMs.hour;

/** The midnight before which every day is finished at `now`: what the rollups may reach. */
export function rollupEdge(now: Date): Date {
  return new Date(startOfDay(now.getTime() - rollupGraceMs));
}

/**
 * The days the next rollup step sums, from the edge `through` toward `before`
 * (both UTC midnights): at most `daysPerStep`, starting at the day of
 * `firstVisit` (the first visit at or after the edge; null when there is
 * none), so days without visits are passed over. Empty, at `before`, when
 * nothing is left; the edge then moves to its `to` all the same.
 */
export function nextRollupStep(through: number, firstVisit: number | null, before: number, daysPerStep: number): Span {
  const from = firstVisit === null ? before : Math.min(Math.max(through, startOfDay(firstVisit)), before);
  return { from, to: Math.min(from + daysPerStep * granularityMs.day, before) };
}

/**
 * An every-link read of [from, to) split at the rollups' edge `through` (a
 * UTC midnight): the part the summed tables hold, and the part still read
 * from the per-link ones (the days since, normally today). Together they are
 * [from, to), and either may be empty.
 */
export function splitAtRollups(span: Span, through: number): { rolledUp: Span; live: Span } {
  const edge = Math.min(Math.max(through, span.from), span.to);
  return { rolledUp: { from: span.from, to: edge }, live: { from: edge, to: span.to } };
}

/** The same for UTC days, [fromDay, toDay] inclusive as the facts are asked for, as half-open day spans. */
export function splitDaysAtRollups(fromDay: string, toDay: string, through: number): { rolledUp: DaySpan; live: DaySpan } {
  const { rolledUp, live } = splitAtRollups({ from: Date.parse(`${fromDay}T00:00:00Z`), to: Date.parse(`${toDay}T00:00:00Z`) + granularityMs.day }, through);
  return { rolledUp: daySpan(rolledUp), live: daySpan(live) };
}

/** Where the top links of [from, to) are summed from: each span once, together exactly [from, to). */
export interface TopLinksSources {
  /** Whole summed UTC months: link_visit_months. */
  months: Span;
  /** Whole summed UTC days outside those months: link_visit_days. */
  days: Span[];
  /** The hours of a day cut by the range, and the days past the rollups' edge: link_visit_buckets. */
  buckets: Span[];
}

/**
 * Splits [from, to) for the top links, so a year is summed from a row per
 * link and month, not per link and hour: whole months, then whole days,
 * from the rollups; the rest (normally today, and the cut hours of a range
 * by the hour) from the buckets. Empty spans are left in; they read nothing.
 */
export function topLinksSources(span: Span, through: number): TopLinksSources {
  const { rolledUp } = splitAtRollups(span, through);
  const firstDay = startOfDay(rolledUp.from + granularityMs.day - 1);
  const endDay = startOfDay(rolledUp.to);
  if (firstDay >= endDay) return { months: empty(span.from), days: [], buckets: [span] };
  const buckets = [
    { from: span.from, to: firstDay },
    { from: endDay, to: span.to },
  ];
  const firstMonth = startOfMonth(firstDay, 0) === firstDay ? firstDay : startOfMonth(firstDay, 1);
  const endMonth = startOfMonth(endDay, 0);
  if (firstMonth >= endMonth) return { months: empty(firstDay), days: [{ from: firstDay, to: endDay }], buckets };
  return {
    months: { from: firstMonth, to: endMonth },
    days: [
      { from: firstDay, to: firstMonth },
      { from: endMonth, to: endDay },
    ],
    buckets,
  };
}

const empty = (at: number): Span => ({ from: at, to: at });

export function startOfDay(ms: number): number {
  return Math.floor(ms / granularityMs.day) * granularityMs.day;
}

/** The first instant of the UTC month holding `ms`, `ahead` months on. */
function startOfMonth(ms: number, ahead: 0 | 1): number {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + ahead, 1);
}

function daySpan(span: Span): DaySpan {
  return { fromDay: new Date(span.from).toISOString().slice(0, 10), toDay: new Date(span.to).toISOString().slice(0, 10) };
}
