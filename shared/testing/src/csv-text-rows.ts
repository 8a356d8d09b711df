import { CsvRowReader } from "@linkgeo/shared";

/** A CSV text's rows as lists of cells, read as our reader reads a file (rows it cannot read left out): for tests of what a CSV says. */
export function csvRows(text: string): string[][] {
  const reader = new CsvRowReader();
  return [...reader.read(text), ...reader.finish()].flatMap((row) => ("fields" in row ? [row.fields] : []));
}
