/**
 * Links as CSV (RFC 4180, with the shortener's own writer): the
 * admin table's selected rows, with the columns the table shows. Every field
 * a link can hold is quoted when it must be, so a destination with commas,
 * quotes or a line break stays one field, and a cell a spreadsheet would
 * run (a tag `-2-3`) is written as text (formula-cells.ts).
 */
import { csvRow } from "@linkgeo/shared/csv";
import type { LinkRecord } from "./admin-links.ts";

const columns = ["short_url", "link", "long_url", "visits", "created_at", "last_accessed_at", "state", "tags"] as const;

export function linksCsv(records: readonly LinkRecord[]): string {
  const rows = records.map((record) => [
    record.short_url,
    record.link,
    record.long_url ?? "",
    String(record.access_count),
    record.created_at,
    record.last_accessed_at ?? "",
    record.state,
    record.tags.join(" "),
  ]);
  return [columns, ...rows].map(csvRow).join("");
}
