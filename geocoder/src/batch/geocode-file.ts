import { coordinateColumns, CsvRowReader, csvRow, maxBatchPoints, restoredCell, type CsvProblem, type CsvRow } from "@linkgeo/shared";
import { addressFieldNames } from "../addresses/address.ts";

/** What is added to each row: the first address's fields, who answered, and why not when nothing did. */
export const addedColumns = [...addressFieldNames, "provider", "error"] as const;

/** The answer of POST /reverse-geocode/batch, as far as the file needs it. */
interface BatchAnswer {
  results: Array<{ data: Array<Record<string, string | null>>; error: { code: string; message: string } | null; provider: string | null }>;
}

/** Asks for the answers of some points (a batch, or a job); answers their results in their order. Retries and waits are its business. */
export type AskBatch = (points: Array<{ latitude: string; longitude: string }>) => Promise<BatchAnswer["results"]>;

export interface FileProgress {
  /** Rows written so far, and how many of them have an address. */
  rows(written: number, answered: number): void;
  /** A row of the file that could not be read (broken quoting): left out of the output. */
  problem(problem: CsvProblem): void;
}

export interface GeocodedFile {
  rows: number;
  answered: number;
  /** Rows with an error of their own (bad coordinates, no provider answered). */
  failed: number;
  /** Rows of the file that could not be read, left out. */
  problems: number;
}

export class MissingColumns extends Error {}

/**
 * Geocodes a CSV file as it streams: the header names the coordinate
 * columns (`latitude`/`lat` and `longitude`/`lon`/`lng`, any case), every
 * other column is passed through, and each row gets `addedColumns` from the
 * answer of its point, rows asked `pointsPerAsk` at a time (a batch's
 * 1,000, or a job's more) and written in their order. A row that cannot be read is reported and left
 * out; a row whose point is refused (not a coordinate) keeps its columns
 * and says why in `error`. A cell's `'` before a formula is read as the
 * text mark (restoredCell), and the output marks what it must: a marked
 * cell comes out as it came in, an unmarked formula comes out marked.
 */
export async function geocodeFile(
  input: AsyncIterable<string>,
  write: (text: string) => void,
  ask: AskBatch,
  progress: FileProgress,
  { pointsPerAsk = maxBatchPoints }: { pointsPerAsk?: number } = {},
): Promise<GeocodedFile> {
  const reader = new CsvRowReader();
  const counts: GeocodedFile = { rows: 0, answered: 0, failed: 0, problems: 0 };
  let columns: { latitude: number; longitude: number } | undefined;
  let pending: CsvRow[] = [];

  const flush = async () => {
    if (pending.length === 0) return;
    const rows = pending;
    pending = [];
    const results = await ask(rows.map((row) => ({ latitude: row.fields[columns!.latitude] ?? "", longitude: row.fields[columns!.longitude] ?? "" })));
    for (const [i, row] of rows.entries()) {
      const result = results[i];
      const address = result?.data[0];
      const error = result === undefined ? "no answer for this row" : result.error ? `${result.error.code}: ${result.error.message}` : "";
      write(csvRow([...row.fields, ...addressFieldNames.map((field) => address?.[field] ?? ""), result?.provider ?? "", error]));
      counts.rows++;
      if (address) counts.answered++;
      if (error) counts.failed++;
    }
    progress.rows(counts.rows, counts.answered);
  };

  const take = async (items: Array<CsvRow | CsvProblem>) => {
    for (const item of items) {
      if ("problem" in item) {
        counts.problems++;
        progress.problem(item);
        continue;
      }
      // Read as written before the text marks (formula-cells.ts): the writer puts back what it must, so a cell passes through as it came.
      const row = { line: item.line, fields: item.fields.map(restoredCell) };
      if (!columns) {
        columns = columnsOf(row.fields);
        write(csvRow([...row.fields, ...addedColumns]));
        continue;
      }
      pending.push(row);
      if (pending.length >= pointsPerAsk) await flush();
    }
  };

  for await (const piece of input) await take(reader.read(piece));
  await take(reader.finish());
  if (!columns) throw new MissingColumns("the file is empty: it needs a header with latitude and longitude columns");
  await flush();
  return counts;
}

function columnsOf(header: string[]): { latitude: number; longitude: number } {
  const columns = coordinateColumns(header);
  if ("missing" in columns) throw new MissingColumns(columns.missing);
  return columns;
}
