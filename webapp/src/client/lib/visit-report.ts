/** A link's visits report as the API answers it (`GET /shorten/<code>/visits`), and how a person reads its values. */
import type { Answer } from "./api-call.ts";
import { regionName } from "./format.ts";

/** With analytics off on the server a visit is only counted: the report has no numbers (totals, series and top are null), and says why. */
export type VisitReport = Answer<"GET /shorten/{short_url}/visits">;

type Numbers = { [Key in "totals" | "series" | "top"]: NonNullable<VisitReport[Key]> };
/** A report with its numbers: analytics on. */
export type RecordedReport = Omit<VisitReport, keyof Numbers> & Numbers;

/** The report's numbers, or null when it has none (analytics off). */
export function recordedReport(report: VisitReport): RecordedReport | null {
  const { totals, series, top } = report;
  return report.analytics === "on" && totals && series && top ? { ...report, totals, series, top } : null;
}

/** A list on the page: a breakdown, or the bots by name. */
export type List = keyof RecordedReport["top"];
export type TopEntry = RecordedReport["top"][List][number];
/** The lists in the order the page shows them. */
export const lists: readonly List[] = ["referrers", "countries", "browsers", "os", "devices", "bots"];

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
