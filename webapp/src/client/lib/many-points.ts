/**
 * Many points on the geocoder playground: read from pasted lines (any form
 * the coordinate fields read) or a CSV file (the columns named as
 * `bun run geocode` finds them: the same shared reader and names), asked
 * 1,000 at a time of POST /reverse-geocode/batch as GeoJSON, and turned
 * into the downloads: the input's columns with the address fields added
 * (CSV), and one FeatureCollection. No DOM here, so the tests read it
 * directly.
 */
import { coordinateColumns, CsvRowReader, csvRow, restoredCell } from "@linkgeo/shared/csv";
import type { Answer } from "./api-call.ts";
import { coordinatePairOf } from "./coordinate-pair.ts";
import { addressFields } from "./geocode-words.ts";

/** One point to ask for, with the columns it came with. */
export interface PointRow {
  columns: string[];
  latitude: string;
  longitude: string;
}

export interface PointsInput {
  header: string[];
  rows: PointRow[];
  /** Lines that are no point, or rows a CSV reader could not read: said, and left out. */
  problems: string[];
}

/** What one page run may ask for: ten batches. A bigger file is `bun run geocode`'s. */
export const maxPagePoints = 10_000;
export const pointsPerBatch = 1_000;

/** Pasted lines, one point each; blank lines are skipped. */
export function pointsFromLines(text: string): PointsInput {
  const input: PointsInput = { header: ["line", "input"], rows: [], problems: [] };
  for (const [i, line] of text.split(/\r\n|\r|\n/).entries()) {
    if (line.trim() === "") continue;
    const pair = coordinatePairOf(line);
    if (pair) input.rows.push({ columns: [String(i + 1), line.trim()], latitude: String(pair.latitude), longitude: String(pair.longitude) });
    else input.problems.push(`line ${i + 1}: not a pair of coordinates`);
  }
  return input;
}

/** A CSV file's rows; a message instead when its header names no coordinate columns. */
export function pointsFromCsv(text: string): PointsInput | string {
  const reader = new CsvRowReader();
  const input: PointsInput = { header: [], rows: [], problems: [] };
  let columns: { latitude: number; longitude: number } | undefined;
  for (const row of [...reader.read(text), ...reader.finish()]) {
    if ("problem" in row) {
      input.problems.push(`line ${row.line}: ${row.problem}`);
      continue;
    }
    // A cell's ' before a formula is the text mark (as bun run geocode reads it): off here, put back by the download's writer.
    const fields = row.fields.map(restoredCell);
    if (!columns) {
      const found = coordinateColumns(fields);
      if ("missing" in found) return `This file cannot be read: ${found.missing}.`;
      columns = found;
      input.header = fields;
      continue;
    }
    input.rows.push({ columns: fields, latitude: fields[columns.latitude] ?? "", longitude: fields[columns.longitude] ?? "" });
  }
  if (!columns) return "This file is empty: it needs a header with latitude and longitude columns.";
  return input;
}

/** A Point feature of the batch's GeoJSON answer: the address fields, provider, cache, the point's id (its row) and error as properties. */
export type PointFeature = Extract<Answer<"POST /reverse-geocode/batch">, { features: unknown }>["features"][number];

/** The point's error, as the batch gives one: `{code, message}`; null when it has none (or none in that shape). */
export function pointError(properties: PointFeature["properties"]): { code: string; message: string } | null {
  const { code, message } = (typeof properties.error === "object" && properties.error !== null ? properties.error : {}) as {
    code?: unknown;
    message?: unknown;
  };
  return typeof code === "string" && typeof message === "string" ? { code, message } : null;
}

/** The first feature of each row (its first address), by row number. */
export function firstFeatureByRow(features: readonly PointFeature[]): Map<number, PointFeature> {
  const byRow = new Map<number, PointFeature>();
  for (const feature of features) {
    const row = feature.properties.id;
    if (typeof row === "number" && !byRow.has(row)) byRow.set(row, feature);
  }
  return byRow;
}

const addedColumns = [...addressFields.map((field) => field.key), "provider", "error"];

/** The input's columns, and each row's first address, provider and error, as `bun run geocode` writes them. */
export function resultsCsv(input: PointsInput, features: readonly PointFeature[]): string {
  const byRow = firstFeatureByRow(features);
  const lines = [csvRow([...input.header, ...addedColumns])];
  for (const [row, point] of input.rows.entries()) {
    const properties = byRow.get(row)?.properties ?? {};
    const error = pointError(properties);
    const said = error ? `${error.code}: ${error.message}` : byRow.has(row) ? "" : "not asked";
    const fields = addressFields.map((field) => {
      const value = properties[field.key];
      return typeof value === "string" ? value : "";
    });
    lines.push(csvRow([...point.columns, ...fields, typeof properties.provider === "string" ? properties.provider : "", said]));
  }
  return lines.join("");
}
