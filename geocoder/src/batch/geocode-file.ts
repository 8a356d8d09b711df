import { coordinateColumns, CsvRowReader, queryColumn, csvRow, maxBatchPoints, restoredCell, type CsvProblem, type CsvRow } from "@linkgeo/shared";
import { addressFieldNames } from "../addresses/address.ts";

/** What is added to each row: the first address's fields, who answered, and why not when nothing did. */
export const addedColumns = [...addressFieldNames, "provider", "error"] as const;
/** With --forward: the first place's address, its point, confidence and the provider's id, who answered, and why not. */
export const forwardAddedColumns = [...addressFieldNames, "latitude", "longitude", "confidence", "provider_id", "provider", "error"] as const;

/** The answer of POST /reverse-geocode/batch (or /geocode/batch), as far as the file needs it. */
interface BatchAnswer {
  results: Array<{ data: Array<Record<string, string | number | null>>; error: { code: string; message: string } | null; provider: string | null }>;
}

/** One row's question: its point (`latitude`, `longitude`), or with --forward its text (`q`). */
export type RowQuestion = Record<string, string>;

/** Asks for the answers of some rows' questions (a batch, or a job); answers their results in their order. Retries and waits are its business. */
export type AskBatch = (questions: RowQuestion[]) => Promise<BatchAnswer["results"]>;

/** What a file asks of each row, and what it adds to it: reverse (a point's address) or forward (a name's place). */
interface FileKind {
  /** The header's columns the question is read from, or why the header has none. */
  questionOf(header: string[]): (fields: string[]) => RowQuestion;
  added: readonly string[];
}

const reverseKind: FileKind = {
  questionOf: (header) => {
    const columns = coordinateColumns(header);
    if ("missing" in columns) throw new MissingColumns(columns.missing);
    return (fields) => ({ latitude: fields[columns.latitude] ?? "", longitude: fields[columns.longitude] ?? "" });
  },
  added: addedColumns,
};

const forwardKind: FileKind = {
  questionOf: (header) => {
    const found = queryColumn(header);
    if ("missing" in found) throw new MissingColumns(found.missing);
    const { column } = found;
    // Past 200 characters a query is refused in its row; sent whole, a file of long cells would make a batch's body too large.
    return (fields) => ({ q: [...(fields[column] ?? "")].slice(0, 201).join("") });
  },
  added: forwardAddedColumns,
};

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
 * 1,000, or a job's more) and written in their order. With `forward`, the
 * question is a column of text (`q`, `query`, `address`, `place`, `name` or
 * `search`, any case) and each row gets `forwardAddedColumns`, from
 * `POST /geocode/batch`. A row that cannot be read is reported and left
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
  { pointsPerAsk = maxBatchPoints, forward = false }: { pointsPerAsk?: number; forward?: boolean } = {},
): Promise<GeocodedFile> {
  const reader = new CsvRowReader();
  const counts: GeocodedFile = { rows: 0, answered: 0, failed: 0, problems: 0 };
  const kind = forward ? forwardKind : reverseKind;
  // The added fields are the added columns but the last two (provider and error), read from the first answer.
  const fields = kind.added.slice(0, -2);
  let questionOf: ((fields: string[]) => RowQuestion) | undefined;
  let pending: CsvRow[] = [];

  const flush = async () => {
    if (pending.length === 0) return;
    const rows = pending;
    pending = [];
    const results = await ask(rows.map((row) => questionOf!(row.fields)));
    for (const [i, row] of rows.entries()) {
      const result = results[i];
      const address = result?.data[0];
      const error = result === undefined ? "no answer for this row" : result.error ? `${result.error.code}: ${result.error.message}` : "";
      write(csvRow([...row.fields, ...fields.map((field) => String(address?.[field] ?? "")), result?.provider ?? "", error]));
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
      if (!questionOf) {
        questionOf = kind.questionOf(row.fields);
        write(csvRow([...row.fields, ...kind.added]));
        continue;
      }
      pending.push(row);
      if (pending.length >= pointsPerAsk) await flush();
    }
  };

  for await (const piece of input) await take(reader.read(piece));
  await take(reader.finish());
  if (!questionOf) {
    throw new MissingColumns(`the file is empty: it needs a header with ${forward ? "a column to look for" : "latitude and longitude columns"}`);
  }
  await flush();
  return counts;
}
