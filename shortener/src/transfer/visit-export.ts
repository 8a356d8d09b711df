import { dimensions } from "../visits/link-visits.ts";
import type { VisitReport } from "../visits/visit-reports.ts";
import { csvRow } from "@linkgeo/shared";

/** The visits CSV's header: one table for the whole report, every row naming its section. */
export const visitCsvColumns = ["section", "value", "visits", "humans", "bots"] as const;

/**
 * A visits report as one CSV table (README: "Exports"): rows `from`, `to`
 * and `granularity` (the range, in `value`), `total`, then `series` (one
 * row per bucket, its start in `value`, every bucket of the range present),
 * then one row per top value of each breakdown (section `referrers`,
 * `countries`, `browsers`, `os`, `devices`, as the JSON report's `top`: the
 * value and its visits; humans and bots are not kept per value, so those
 * fields are empty).
 */
export function visitReportCsv(report: VisitReport): string {
  const rows = [
    csvRow(visitCsvColumns),
    csvRow(["from", report.from, "", "", ""]),
    csvRow(["to", report.to, "", "", ""]),
    csvRow(["granularity", report.granularity, "", "", ""]),
    csvRow(["total", "", String(report.totals.visits), String(report.totals.humans), String(report.totals.bots)]),
    ...report.series.map((point) => csvRow(["series", point.t, String(point.visits), String(point.humans), String(point.bots)])),
    ...dimensions.flatMap((dimension) => report.top[dimension].map((entry) => csvRow([dimension, entry.value, String(entry.visits), "", ""]))),
  ];
  return rows.join("");
}
