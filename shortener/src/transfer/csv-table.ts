import { readCsvRows, restoredCell } from "@linkgeo/shared";
import { optionalText, UnreadableCell } from "./foreign-cells.ts";
import type { ImportRecord, ImportRow } from "./import-record.ts";

/** A row's cells by column; undefined for a column the file does not have. */
export type Cells<Column extends string> = (column: Column) => string | undefined;

/** What a record holds beside its line and long URL. */
export type RecordDetails = Omit<ImportRecord, "line" | "longUrl">;

/**
 * How one tool's CSV export names its columns, and what a row of it says.
 * Columns are found by their header names in any order, compared by
 * `headerKey` ("Long URL", "long_url" and "longUrl" are one name).
 */
export interface CsvLayout<Column extends string> {
  /** The names each column goes by, the preferred first (compared by `headerKey`). */
  columns: Record<Column, readonly string[]>;
  /** The long URL's column: a header without it cannot be read, a row without it is a problem. */
  longUrl: Column;
  /** For exports that may come without a header: whether a first row is data, and the columns in file order then (null: a column not read). */
  headerless?: { isData: (fields: string[]) => boolean; order: readonly (Column | null)[]; minFields: number };
  /**
   * Whether a cell's leading `'` before a formula is the text mark our CSV
   * writer and spreadsheets use (formula-cells.ts), read without it; other
   * tools' exports are read as they wrote them.
   */
  textMarks?: "restored";
  /** The row's other fields, read from its cells; throws UnreadableCell for a cell out of shape. */
  details: (cells: Cells<Column>) => RecordDetails;
}

/** A header name as compared: lower case, letters and digits only. */
export function headerKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

type ColumnIndexes<Column extends string> = Partial<Record<Column, number>>;

/**
 * The records of a CSV export laid out as `layout` says, one per row, in
 * file order: a row that cannot be read (broken quoting, a field too many
 * or too few, no long URL, a bad cell) is a problem at its line, and the
 * rows after it are read as usual. A header that names no long URL column
 * is the one problem that ends the file: no row could be read by it.
 */
export async function* readCsvTable<Column extends string>(chunks: AsyncIterable<string>, layout: CsvLayout<Column>): AsyncGenerator<ImportRow> {
  let indexes: ColumnIndexes<Column> | undefined;
  let fieldCount: { min: number; max: number } | undefined;
  for await (const row of readCsvRows(chunks)) {
    if (!("fields" in row)) {
      yield row;
      continue;
    }
    const line = row.line;
    const fields = layout.textMarks === "restored" ? row.fields.map(restoredCell) : row.fields;
    // A row of empty fields is what spreadsheets leave below a table.
    if (fields.every((field) => field.trim() === "")) continue;
    if (indexes === undefined || fieldCount === undefined) {
      const headerless = layout.headerless;
      if (headerless?.isData(fields)) {
        indexes = indexesInOrder(headerless.order);
        fieldCount = { min: headerless.minFields, max: headerless.order.length };
      } else {
        indexes = indexesOfHeader(fields, layout.columns);
        if (indexes[layout.longUrl] === undefined) {
          yield { line, problem: headerProblem(layout) };
          return;
        }
        fieldCount = { min: fields.length, max: fields.length };
        continue;
      }
    }
    if (fields.length < fieldCount.min || fields.length > fieldCount.max) {
      yield { line, problem: fieldCountProblem(fields.length, fieldCount) };
      continue;
    }
    yield recordOf(line, fields, indexes, layout);
  }
}

function recordOf<Column extends string>(line: number, fields: string[], indexes: ColumnIndexes<Column>, layout: CsvLayout<Column>): ImportRow {
  const cells: Cells<Column> = (column) => {
    const index = indexes[column];
    return index === undefined ? undefined : fields[index];
  };
  const longUrl = optionalText(cells(layout.longUrl));
  if (longUrl === undefined) return { line, problem: "the row has no long URL" };
  try {
    return { line, longUrl, ...withoutAbsent(layout.details(cells)) };
  } catch (error) {
    if (error instanceof UnreadableCell) return { line, problem: error.message };
    throw error;
  }
}

function indexesOfHeader<Column extends string>(header: string[], columns: Record<Column, readonly string[]>): ColumnIndexes<Column> {
  const keys = header.map(headerKey);
  const indexes: ColumnIndexes<Column> = {};
  for (const [column, names] of Object.entries(columns) as Array<[Column, readonly string[]]>) {
    const index = names.map((name) => keys.indexOf(headerKey(name))).find((found) => found >= 0);
    if (index !== undefined) indexes[column] = index;
  }
  return indexes;
}

function indexesInOrder<Column extends string>(order: readonly (Column | null)[]): ColumnIndexes<Column> {
  const indexes: ColumnIndexes<Column> = {};
  order.forEach((column, index) => {
    if (column !== null) indexes[column] = index;
  });
  return indexes;
}

function headerProblem<Column extends string>(layout: CsvLayout<Column>): string {
  const names = layout.columns[layout.longUrl].join(", ");
  const headerless = layout.headerless ? ", nor a row of data" : "";
  return `the first line is not a header naming the long URL's column (${names})${headerless}: the file cannot be read`;
}

function fieldCountProblem(count: number, expected: { min: number; max: number }): string {
  const wanted = expected.min === expected.max ? `${expected.max}` : `${expected.min} to ${expected.max}`;
  return `the row has ${count} fields where ${wanted} are expected (an unquoted comma in a value?)`;
}

/** The details without their undefined fields, so records compare and print as the file had them. */
function withoutAbsent(details: RecordDetails): RecordDetails {
  return Object.fromEntries(Object.entries(details).filter(([, value]) => value !== undefined));
}
