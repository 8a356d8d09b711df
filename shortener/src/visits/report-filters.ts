import { InvalidRequest } from "@linkgeo/shared";
import { dimensions, type Dimension } from "./link-visits.ts";
import { otherValue } from "./named-values.ts";
import type { VisitRange } from "./visit-range.ts";

/** Whose visits the top lists rank: everyone's, humans' only, or bots' only. */
const visitorKinds = ["all", "humans", "bots"] as const;
export type Visitors = (typeof visitorKinds)[number];

/** The visits with one value of one breakdown (a country, a referrer…): what a filtered series counts. */
export interface ValueFilter {
  breakdown: Dimension;
  value: string;
}

/** What a visits report narrows, beside its range. */
export interface ReportFilters {
  visitors: Visitors;
  /** The series and totals of one value only; null: every visit. */
  only: ValueFilter | null;
}

export const everyVisit: ReportFilters = { visitors: "all", only: null };

/** A breakdown's values are printable ASCII of at most a host name's 253 characters (visit-facts.ts): a longer one can name none. */
const maxValueLength = 253;

/**
 * `?visitors=&breakdown=&value=` of a visits report. Refused with 400:
 * visitors other than all, humans or bots; breakdown without value or the
 * other way round; a breakdown the reports do not keep; an empty or
 * over-long value, or "other" (the rest of a list, not one value); and a
 * filtered series by the hour, since breakdowns are kept per UTC day.
 */
export function parseReportFilters(query: { visitors?: string; breakdown?: string; value?: string }, range: VisitRange): ReportFilters {
  const visitors = query.visitors ?? "all";
  if (!isVisitors(visitors)) throw InvalidRequest.because("visitors must be all, humans or bots");
  if (query.breakdown === undefined && query.value === undefined) return { visitors, only: null };
  if (query.breakdown === undefined || query.value === undefined) throw InvalidRequest.because("breakdown and value go together: name both, or neither");
  const breakdown = query.breakdown;
  if (!isDimension(breakdown)) throw InvalidRequest.because(`breakdown must be one of ${dimensions.join(", ")}`);
  const value = query.value;
  if (value.length === 0 || value.length > maxValueLength) throw InvalidRequest.because(`value must be 1 to ${maxValueLength} characters`);
  if (value === otherValue) throw InvalidRequest.because("other is the rest of a list, not one value: choose a value the list names");
  if (range.granularity !== "day")
    throw InvalidRequest.because("the series of one value is by day (breakdowns are kept per UTC day): ask with granularity=day");
  return { visitors, only: { breakdown, value } };
}

function isVisitors(value: string): value is Visitors {
  return (visitorKinds as readonly string[]).includes(value);
}

function isDimension(value: string): value is Dimension {
  return (dimensions as readonly string[]).includes(value);
}
