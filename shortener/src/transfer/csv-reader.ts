import type { ImportProblem } from "./import-record.ts";

/** One record of a CSV file: its fields, and the line it starts on (1-based). */
export interface CsvRow {
  line: number;
  fields: string[];
}

/**
 * A record longer than this is taken for broken quoting (a quote never
 * closed swallows the rest of the file): reported, and reading goes on at
 * the next line. Ours are far shorter: a URL is at most 2 KiB, twenty rules
 * about 40 KiB.
 */
export const maxRecordChars = 256 * 1024;

type Read = { fields: string[]; end: number } | { incomplete: true } | { broken: string; at: number };

/**
 * The records of a CSV file (RFC 4180: fields separated by commas, records
 * by CRLF or LF, a field in double quotes may hold commas, quotes doubled and
 * line breaks) as its text arrives, in chunks of any size, holding one
 * record at a time. A BOM at the start is dropped and blank lines are
 * skipped. Broken quoting is a problem on its line, never fatal: reading
 * goes on at the line after it. Lenient where RFC 4180 is strict and no
 * meaning is lost: a quote inside an unquoted field is kept as a character.
 */
export async function* csvRows(chunks: AsyncIterable<string>): AsyncGenerator<CsvRow | ImportProblem> {
  let buffer = "";
  let line = 1;
  let started = false;
  // After an over-long record without a line break: the rest of its line is dropped as it arrives.
  let skippingLine = false;

  function* drain(final: boolean): Generator<CsvRow | ImportProblem> {
    let position = 0;
    for (;;) {
      if (skippingLine) {
        const newline = buffer.indexOf("\n", position);
        if (newline === -1) {
          position = buffer.length;
          break;
        }
        skippingLine = false;
        position = newline + 1;
        line++;
      }
      if (position >= buffer.length) break;
      const blank = blankLineLength(buffer, position, final);
      if (blank === -1) break;
      if (blank > 0) {
        position += blank;
        line++;
        continue;
      }
      const read = readRecord(buffer, position, final);
      if ("incomplete" in read) {
        if (buffer.length - position <= maxRecordChars) break;
        yield { line, problem: `a record is longer than ${maxRecordChars} characters (a quote never closed?)` };
        const newline = buffer.indexOf("\n", position);
        if (newline === -1) {
          skippingLine = true;
          position = buffer.length;
          break;
        }
        position = newline + 1;
        line++;
        continue;
      }
      if ("broken" in read) {
        yield { line: line + countNewlines(buffer, position, read.at), problem: read.broken };
        const newline = buffer.indexOf("\n", read.at);
        line += countNewlines(buffer, position, newline === -1 ? buffer.length : newline + 1);
        position = newline === -1 ? buffer.length : newline + 1;
        continue;
      }
      yield { line, fields: read.fields };
      line += countNewlines(buffer, position, read.end);
      position = read.end;
    }
    buffer = buffer.slice(position);
  }

  for await (const chunk of chunks) {
    if (chunk.length === 0) continue;
    buffer += started ? chunk : chunk.replace(/^\uFEFF/, "");
    started = true;
    yield* drain(false);
  }
  yield* drain(true);
}

/** How long the blank line at `at` is (0: it is not blank; -1: cannot tell yet). */
function blankLineLength(text: string, at: number, final: boolean): number {
  if (text.charCodeAt(at) === lf) return 1;
  if (text.charCodeAt(at) !== cr) return 0;
  if (at + 1 >= text.length) return final ? 1 : -1;
  return text.charCodeAt(at + 1) === lf ? 2 : 1;
}

const comma = 44;
const quote = 34;
const cr = 13;
const lf = 10;

/** The record at `start`, where it ends (past its line break), or why it cannot be read yet or at all. */
function readRecord(text: string, start: number, final: boolean): Read {
  const fields: string[] = [];
  let i = start;
  for (;;) {
    let next: number;
    if (text.charCodeAt(i) === quote) {
      let value = "";
      let from = i + 1;
      for (;;) {
        const closing = text.indexOf('"', from);
        if (closing === -1) return final ? { broken: "a quoted field is never closed", at: i } : { incomplete: true };
        value += text.slice(from, closing);
        if (closing + 1 >= text.length && !final) return { incomplete: true };
        if (text.charCodeAt(closing + 1) === quote) {
          value += '"';
          from = closing + 2;
          continue;
        }
        next = closing + 1;
        break;
      }
      fields.push(value);
      const after = text.charCodeAt(next);
      if (next < text.length && after !== comma && after !== cr && after !== lf) {
        return { broken: "a quoted field must be followed by a comma or the end of the line", at: next };
      }
    } else {
      next = i;
      for (; next < text.length; next++) {
        const c = text.charCodeAt(next);
        if (c === comma || c === cr || c === lf) break;
      }
      if (next >= text.length && !final) return { incomplete: true };
      fields.push(text.slice(i, next));
    }
    if (next >= text.length) return { fields, end: text.length };
    const c = text.charCodeAt(next);
    if (c === comma) {
      i = next + 1;
      continue;
    }
    if (c === lf) return { fields, end: next + 1 };
    // CR: a CRLF, or a lone CR (old Mac files) ending the record too.
    if (next + 1 >= text.length) return final ? { fields, end: next + 1 } : { incomplete: true };
    return { fields, end: text.charCodeAt(next + 1) === lf ? next + 2 : next + 1 };
  }
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf("\n", from); at !== -1 && at < to; at = text.indexOf("\n", at + 1)) count++;
  return count;
}
