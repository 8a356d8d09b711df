/**
 * What each bar of the visits chart counts: an hour, a day, a week or a
 * month, picked by the range shown so the bars can be told apart and still
 * draw a shape (24 hourly bars, 30 daily ones, 13 weekly ones), never
 * hundreds of hourly slivers. The API counts by hour or by UTC day; weeks
 * (from Monday) and months are its days added up here. No DOM: the unit
 * tests run it as it is.
 */

import type { Answer } from "./api-call.ts";

export type BarSize = "hour" | "day" | "week" | "month";
export const barSizes: readonly BarSize[] = ["hour", "day", "week", "month"];

/** One bucket of the visits API's series, or of a series added up by week or month: its start, and its visits split into humans and bots. */
export type VisitBucket = NonNullable<Answer<"GET /shorten/{short_url}/visits">["series"]>[number];

const hourMs = 3_600_000;
export const dayMs = 86_400_000;

/**
 * The spans of range each size fits: from a few bars to a couple of hundred.
 * A day fits any span up to a year (24 hours by day are yesterday and today).
 */
const fittingSpans: Record<BarSize, { min: number; max: number }> = {
  hour: { min: 0, max: 7 * dayMs },
  day: { min: 0, max: 366 * dayMs },
  week: { min: 28 * dayMs, max: 4 * 366 * dayMs },
  month: { min: 90 * dayMs, max: Number.POSITIVE_INFINITY },
};

/** The sizes a range `spanMs` long may be shown by, smallest first. */
export function barSizesFor(spanMs: number): BarSize[] {
  return barSizes.filter((size) => spanMs >= fittingSpans[size].min && spanMs <= fittingSpans[size].max);
}

/** The size the chart picks for a range: hours up to two days, days up to two months, weeks up to a year, then months. */
export function fittingBarSize(spanMs: number): BarSize {
  if (spanMs <= 2 * dayMs) return "hour";
  if (spanMs <= 62 * dayMs) return "day";
  if (spanMs <= 366 * dayMs) return "week";
  return "month";
}

/** What the API is asked for: hours, or days (which weeks and months are added up from). */
export const apiGranularity = (size: BarSize): "hour" | "day" => (size === "hour" ? "hour" : "day");

/** The start (ms, UTC) of the bar of `size` holding the instant `at`; weeks start on Monday. */
export function barStart(at: number, size: BarSize): number {
  if (size === "hour") return Math.floor(at / hourMs) * hourMs;
  const day = Math.floor(at / dayMs) * dayMs;
  if (size === "day") return day;
  if (size === "week") return day - ((new Date(day).getUTCDay() + 6) % 7) * dayMs;
  const date = new Date(day);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

/** The start of the bar after the one starting at `start`. */
export function nextBarStart(start: number, size: BarSize): number {
  if (size === "month") {
    const date = new Date(start);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  }
  return start + { hour: hourMs, day: dayMs, week: 7 * dayMs }[size];
}

/**
 * Where a preset range ("the last 7 days") starts when it ends at `now`: on a
 * bar's start, so that its first bar is whole, and as many bars back as fit
 * in the span with the current one (7 days by day: six days back, and today).
 */
export function presetStart(now: number, spanMs: number, size: BarSize): number {
  const first = barStart(now - spanMs, size);
  // A span shorter than two bars (24 hours by day) keeps its first bar: yesterday and today.
  return nextBarStart(first, size) - first <= spanMs / 2 ? nextBarStart(first, size) : first;
}

/**
 * The API's series by hour or day as the bars of `size`: hours and days as
 * they are, days added up into their week or month (a bar named by its
 * start, which may lie before the range's first day).
 */
export function seriesBy(series: readonly VisitBucket[], size: BarSize): VisitBucket[] {
  if (size === "hour" || size === "day") return [...series];
  const bars = new Map<number, VisitBucket>();
  for (const bucket of series) {
    const start = barStart(Date.parse(bucket.t), size);
    const bar = bars.get(start) ?? { t: new Date(start).toISOString(), visits: 0, humans: 0, bots: 0 };
    bar.visits += bucket.visits;
    bar.humans += bucket.humans;
    bar.bots += bucket.bots;
    bars.set(start, bar);
  }
  return [...bars.values()];
}
