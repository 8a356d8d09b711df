import { JsonTooDeep, parseJson, readCsvRows, restoredCell } from "@linkgeo/shared";
import { csvTagSeparator, exportColumns } from "./exported-link.ts";
import type { ImportParser, ImportRow } from "./import-record.ts";
import { importRecordOf } from "./linkgeo-record.ts";

/**
 * Our own CSV export (GET /admin/export/links?format=csv): the header names
 * the columns (in any order; short_url and long_url at least), then one link
 * a row, read back into the very values the export wrote (exported-link.ts):
 * each cell the writer marked as text for spreadsheets is read without the
 * mark (restoredCell).
 */
export const parseLinkgeoCsv: ImportParser = async function* (chunks) {
  let columns: string[] | undefined;
  for await (const row of readCsvRows(chunks)) {
    if ("problem" in row) {
      yield row;
      continue;
    }
    if (columns === undefined) {
      columns = row.fields.map((name) => name.trim());
      if (!columns.includes("short_url") || !columns.includes("long_url")) {
        yield { line: row.line, problem: `not our CSV export: its header must name ${exportColumns.join(",")}` };
        return;
      }
      continue;
    }
    if (row.fields.length !== columns.length) {
      yield { line: row.line, problem: `has ${row.fields.length} fields, the header ${columns.length}` };
      continue;
    }
    yield recordOfRow(row.line, columns, row.fields.map(restoredCell));
  }
};

const numberColumns = new Set(["max_visits", "redirect_status", "access_count"]);
const booleanColumns = new Set(["password_protected", "forward_query", "public_stats"]);

function recordOfRow(line: number, columns: readonly string[], fields: readonly string[]): ImportRow {
  const value: Record<string, unknown> = {};
  for (const [index, column] of columns.entries()) {
    const text = fields[index]!;
    if (text === "") value[column] = null;
    else if (column === "tags") value.tags = text.split(csvTagSeparator).filter(Boolean);
    else if (column === "rules") {
      try {
        value.rules = parseJson(text);
      } catch (error) {
        return { line, problem: error instanceof JsonTooDeep ? `rules ${error.message}` : "rules must be JSON" };
      }
    } else if (numberColumns.has(column)) value[column] = /^\d+$/.test(text) ? Number(text) : text;
    else if (booleanColumns.has(column)) value[column] = text === "true" ? true : text === "false" ? false : text;
    else value[column] = text;
  }
  return importRecordOf(line, value);
}
