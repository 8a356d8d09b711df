import { type CsvLayout, readCsvTable } from "./csv-table.ts";
import { looksLikeUrl, optionalText, readCount, readInstant } from "./foreign-cells.ts";
import type { ImportParser } from "./import-record.ts";

type Column = "keyword" | "url" | "title" | "timestamp" | "clicks";

/**
 * YOURLS' `yourls_url` table exported as CSV (phpMyAdmin, `mysql`, a
 * plugin). Its columns, from `includes/functions-install.php`: `keyword`
 * (the code), `url` (text), `title` (text, may be NULL), `timestamp`
 * (a MySQL TIMESTAMP, `2024-05-01 10:20:30`), `ip` (the creator's
 * address), `clicks`.
 *
 * With a header the columns may come in any order; without one (what
 * phpMyAdmin writes by default) they are the table's order, recognised by
 * six fields with a URL second. `ip` is never read: no address is kept
 * here (CONTRACT: privacy). A NULL title (`NULL`, `\N`) is no title. The
 * timestamp carries no zone: it is taken as UTC.
 */
const yourlsTable: CsvLayout<Column> = {
  columns: {
    keyword: ["keyword"],
    url: ["url"],
    title: ["title"],
    timestamp: ["timestamp"],
    clicks: ["clicks"],
  },
  longUrl: "url",
  headerless: {
    isData: (fields) => fields.length === 6 && looksLikeUrl(fields[1]),
    order: ["keyword", "url", "title", "timestamp", null, "clicks"],
    minFields: 6,
  },
  details: (cells) => ({
    code: optionalText(cells("keyword")),
    title: sqlText(cells("title")),
    createdAt: readInstant(sqlText(cells("timestamp")), "timestamp"),
    accessCount: readCount(cells("clicks"), "clicks"),
  }),
};

/** A text cell of a SQL dump: NULL (`NULL` as phpMyAdmin writes it, `\N` as MySQL does) is none. */
function sqlText(value: string | undefined): string | undefined {
  const text = optionalText(value);
  return text === "NULL" || text === "\\N" ? undefined : text;
}

export const readYourlsExport: ImportParser = (chunks) => readCsvTable(chunks, yourlsTable);
