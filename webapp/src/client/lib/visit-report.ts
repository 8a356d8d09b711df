/** A link's visits report as the API answers it (`GET /shorten/<code>/visits/`), and how a person reads its values. */
import type { VisitBucket } from "./bar-sizes.ts";
import { regionName } from "./format.ts";

export type TopEntry = { value: string; visits: number; humans: number; bots: number };
export const dimensions = ["referrers", "countries", "browsers", "os", "devices"] as const;
export type Dimension = (typeof dimensions)[number];
/** A list on the page: a breakdown, or the bots by name. */
export type List = Dimension | "bots";
export const lists: readonly List[] = [...dimensions, "bots"];

export interface RecordedReport {
  from: string;
  to: string;
  granularity: "hour" | "day";
  analytics: "on";
  totals: { visits: number; humans: number; bots: number };
  series: VisitBucket[];
  top: Record<List, TopEntry[]>;
}

/** With analytics off on the server a visit is only counted: the report has no numbers, and says why. */
export type VisitReport = RecordedReport | { analytics: "off"; totals: null; series: null; top: null };

/** The one value whose visits the chart shows: a row chosen in a list. */
export interface ChartFilter {
  list: List;
  value: string;
}

const deviceNames: Record<string, string> = { desktop: "Desktop", mobile: "Mobile", tablet: "Tablet", bot: "Bot", other: "Other" };

/** A list's value as a person reads it: a country's name, "Direct (no referrer)". */
export function valueLabel(list: List, value: string): string {
  if (value === "other") return "Other";
  if (value === "unknown") return "Unknown";
  if (list === "referrers" && value === "direct") return "Direct (no referrer)";
  if (list === "devices") return deviceNames[value] ?? value;
  if (list === "countries" && /^[A-Z]{2}$/.test(value)) return regionName(value);
  return value;
}

/** How the chart's subject reads for a chosen row: "visits from Germany". */
const filterPhrases: Record<List, (label: string) => string> = {
  referrers: (label) => `visits from the referrer ${label}`,
  countries: (label) => `visits from ${label}`,
  browsers: (label) => `visits with the browser ${label}`,
  os: (label) => `visits from ${label}`,
  devices: (label) => `visits from devices of the kind ${label}`,
  bots: (label) => `visits of the bot ${label}`,
};

export function filterName(filter: ChartFilter): string {
  return filterPhrases[filter.list](valueLabel(filter.list, filter.value));
}

export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
