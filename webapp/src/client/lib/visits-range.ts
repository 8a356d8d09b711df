/**
 * The range a link's visits are shown for: a preset ending now ("the last 7
 * days") or days a person chose, as the API's `from` and `to`. No DOM: the
 * unit tests run it as it is.
 */
import { dayMs, presetStart, type BarSize } from "./bar-sizes.ts";

/** The presets of the Range menu, in days. */
const presetDays: Record<string, number> = { "24h": 1, "7d": 7, "30d": 30, "90d": 90 };

/** The API's own bound for a series by day: ten years of days. */
const maxDays = 3_660;

/** What the Range menu and the two dates hold. */
export interface RangeChoice {
  /** "24h", "7d", "30d", "90d", or "custom" for the dates. */
  preset: string;
  /** The first and last day chosen (midnight UTC, as a date field gives them), or null when empty. */
  firstDay: Date | null;
  lastDay: Date | null;
}

/** The query of a range: `from` and `to` as the API reads them. */
export interface VisitRange {
  from: Date;
  to: Date;
  /** Ends now: the range a live update can add to. */
  live: boolean;
}

/** How long the chosen range is, to fit the bars to it; null when the dates chosen cannot be asked for. */
export function chosenSpan(choice: RangeChoice, now: number): number | null {
  if (choice.preset !== "custom") return (presetDays[choice.preset] ?? 7) * dayMs;
  const range = customRange(choice, now);
  return typeof range === "string" ? null : range.to.getTime() - range.from.getTime();
}

/**
 * The range chosen, by bars of `size`; a message instead when the dates
 * chosen cannot be asked for. A preset starts on a bar's start, so its first
 * bar is whole; dates chosen are kept as they are.
 */
export function chosenRange(choice: RangeChoice, size: BarSize, now: number): VisitRange | string {
  if (choice.preset === "custom") return customRange(choice, now);
  const span = (presetDays[choice.preset] ?? 7) * dayMs;
  return { from: new Date(presetStart(now, span, size)), to: new Date(now), live: true };
}

function customRange({ firstDay, lastDay }: RangeChoice, now: number): VisitRange | string {
  if (!firstDay || !lastDay) return "Choose both dates: the first and the last day to show.";
  // The last day is shown whole: up to its end, or to now when that is today.
  const to = new Date(Math.min(lastDay.getTime() + dayMs, now));
  if (firstDay.getTime() >= to.getTime()) return "The first day must come before the last, and not after today.";
  if ((to.getTime() - firstDay.getTime()) / dayMs > maxDays) return "A range can be ten years at most.";
  return { from: firstDay, to, live: lastDay.getTime() + dayMs > now };
}
