import { piecesOf } from "@linkgeo/testing";
import type { ImportParser, ImportRow } from "../../src/transfer/import-record.ts";

export { piecesOf };

/** A sample file of test/fixtures/import/, as text (its BOM kept). */
export async function importSample(name: string): Promise<string> {
  return await Bun.file(new URL(`../fixtures/import/${name}`, import.meta.url)).text();
}

/** Every row a parser yields for `text` cut at `cuts`. */
export async function rowsOf(parse: ImportParser, text: string, cuts: readonly number[] = []): Promise<ImportRow[]> {
  const rows: ImportRow[] = [];
  for await (const row of parse(piecesOf(text, cuts))) rows.push(row);
  return rows;
}

/** `text` without its BOM and with LF line ends, as a Unix tool would have written it. */
export function asUnixText(text: string): string {
  return text.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n");
}

/** Cuts at `count` places chosen by a seeded generator, so a failure can be replayed. */
export function seededCuts(length: number, count: number, seed: number): number[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state;
  };
  return Array.from({ length: count }, () => next() % (length + 1));
}

/**
 * Whether `parse` yields for `text` cut anywhere what it yields for the
 * whole: at every single index, into one-character pieces, and at random
 * places; the rows that differ, or an empty list.
 */
export async function rowsThatDifferWhenCut(parse: ImportParser, text: string): Promise<string[]> {
  const whole = JSON.stringify(await rowsOf(parse, text));
  const cuttings = [
    ...Array.from({ length: text.length + 1 }, (_, cut) => [cut]),
    Array.from(text, (_, i) => i),
    ...[1, 2, 3].map((seed) => seededCuts(text.length, 20, seed)),
  ];
  const differing: string[] = [];
  for (const cuts of cuttings) {
    const rows = JSON.stringify(await rowsOf(parse, text, cuts));
    if (rows !== whole) differing.push(`cut at ${cuts.join(",")}: ${rows}`);
  }
  return differing;
}
