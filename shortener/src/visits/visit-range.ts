import { InvalidRequest } from "@linkgeo/shared";
import { firstInstant, lastInstant } from "../http/instant.ts";

export type Granularity = "hour" | "day";

/** What a visits query asks for: the buckets of `granularity` from the one holding `from` to the one holding `to`. */
export interface VisitRange {
  from: Date;
  to: Date;
  granularity: Granularity;
}

export const granularityMs: Record<Granularity, number> = { hour: 3_600_000, day: 86_400_000 };

/** About a year of hours (a leap year's), and ten years of days: a series is at most this many buckets. */
const maxBuckets: Record<Granularity, number> = { hour: 366 * 24, day: 3660 };
const defaultDays = 30;

// A date (midnight UTC) or a date and time with a zone: "2026-11-22", "2026-11-22T07:00:00Z", "…+02:00".
const isoInstant = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/;

/**
 * The range of `?from=&to=&granularity=`: `to` defaults to now, `from` to 30
 * days before `to`, the granularity to days. Refused with 400: a value that
 * is not an ISO 8601 instant or names a day or time that does not exist
 * (2026-02-30), one outside [firstInstant, lastInstant] (what every engine
 * stores, http/instant.ts), `from` after `to`,
 * a granularity other than hour or day, and more buckets than `maxBuckets`
 * (a year of hours).
 */
export function parseVisitRange(query: { from?: string; to?: string; granularity?: string }, now: Date): VisitRange {
  const granularity = query.granularity ?? "day";
  if (granularity !== "hour" && granularity !== "day") throw InvalidRequest.because("granularity must be hour or day");
  const to = query.to === undefined ? now : instant("to", query.to);
  // The default never reaches before the first instant a range may name.
  const from =
    query.from === undefined ? new Date(Math.max(to.getTime() - defaultDays * granularityMs.day, firstInstant.getTime())) : instant("from", query.from);
  if (from > to) throw InvalidRequest.because("from must not be after to");
  const buckets = (bucketStart(to, granularity) - bucketStart(from, granularity)) / granularityMs[granularity] + 1;
  if (buckets > maxBuckets[granularity]) {
    throw InvalidRequest.because(
      `a range may hold at most ${maxBuckets[granularity]} ${granularity}s (${granularity === "hour" ? "about a year" : "about ten years"}); ask for fewer, or by day`,
    );
  }
  return { from, to, granularity };
}

/** The start (ms since the epoch, UTC) of the bucket of `granularity` holding `instant`. */
export function bucketStart(instant: Date, granularity: Granularity): number {
  const step = granularityMs[granularity];
  return Math.floor(instant.getTime() / step) * step;
}

/** `YYYY-MM-DD` of the UTC day holding `instant`. */
export function utcDay(instant: Date | number): string {
  return new Date(instant).toISOString().slice(0, 10);
}

function instant(name: string, raw: string): Date {
  const value = isCalendarInstant(raw) ? Date.parse(raw.length === 10 ? `${raw}T00:00:00Z` : raw) : Number.NaN;
  if (Number.isNaN(value))
    throw InvalidRequest.because(`${name} must be an ISO 8601 date or date and time with a zone, e.g. 2026-11-22 or 2026-11-22T07:00:00Z`);
  if (value < firstInstant.getTime() || value > lastInstant.getTime())
    throw InvalidRequest.because(`${name} must be between ${utcDay(firstInstant)} and ${utcDay(lastInstant)}`);
  return new Date(value);
}

/**
 * Whether `raw` has the shape and names a real day and time: JavaScript's
 * Date.parse takes 2026-02-30 as March 2nd and 24:00 as the next midnight.
 */
function isCalendarInstant(raw: string): boolean {
  const match = isoInstant.exec(raw);
  if (!match) return false;
  const [year, month, day, hour = 0, minute = 0, second = 0, offsetHours = 0, offsetMinutes = 0] = match
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part)));
  const leap = year! % 4 === 0 && (year! % 100 !== 0 || year! % 400 === 0);
  const daysInMonth = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month!) ? 30 : 31;
  return (
    month! >= 1 && month! <= 12 && day! >= 1 && day! <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 23 && offsetMinutes <= 59
  );
}
