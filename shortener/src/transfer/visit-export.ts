import { dimensions } from "../visits/link-visits.ts";
import type { VisitReport } from "../visits/visit-reports.ts";
import { csvRow } from "@linkgeo/shared";

/** The visits CSV's header: one table for the whole report, every row naming its section. */
export const visitCsvColumns = ["section", "value", "visits", "humans", "bots"] as const;

/**
 * A visits report as one CSV table (docs/migrating.md): rows `from`, `to`,
 * `granularity` and `visitors` (the query, in `value`), `filter` (the one
 * value the series counts, as `breakdown:value`, empty for every visit),
 * `analytics` (`on` or `off`; off, no row of numbers follows, as the JSON
 * report's are null), `total`, then `series` (one row per bucket, its
 * start in `value`, every bucket of the range present), then one row per
 * top value of each breakdown (section `referrers`, `countries`,
 * `browsers`, `os`, `devices`, and `bots` for the bots by name, as the JSON
 * report's `top`: the value, its visits, humans and bots).
 */
export function visitReportCsv(report: VisitReport): string {
  const query = [
    csvRow(visitCsvColumns),
    csvRow(["from", report.from, "", "", ""]),
    csvRow(["to", report.to, "", "", ""]),
    csvRow(["granularity", report.granularity, "", "", ""]),
    csvRow(["visitors", report.visitors, "", "", ""]),
    csvRow(["filter", report.filter ? `${report.filter.breakdown}:${report.filter.value}` : "", "", "", ""]),
    csvRow(["analytics", report.analytics, "", "", ""]),
  ];
  if (report.analytics === "off") return query.join("");
  const rows = [
    ...query,
    csvRow(["total", "", String(report.totals.visits), String(report.totals.humans), String(report.totals.bots)]),
    ...report.series.map((point) => csvRow(["series", point.t, String(point.visits), String(point.humans), String(point.bots)])),
    ...[...dimensions, "bots" as const].flatMap((section) =>
      report.top[section].map((entry) => csvRow([section, entry.value, String(entry.visits), String(entry.humans), String(entry.bots)])),
    ),
  ];
  return rows.join("");
}
