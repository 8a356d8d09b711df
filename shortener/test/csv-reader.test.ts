import { describe, expect, test } from "bun:test";
import { csvRows, maxRecordChars } from "../src/transfer/csv-reader.ts";
import { csvRow } from "../src/transfer/csv-writer.ts";

async function* chunked(text: string, size: number): AsyncGenerator<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

async function rowsOf(text: string, size = text.length || 1) {
  const rows = [];
  for await (const row of csvRows(chunked(text, size))) rows.push(row);
  return rows;
}

describe("csvRows", () => {
  const file = '\uFEFFa,b,c\r\n1,"two, with comma","say ""hi"""\r\n\r\n"multi\nline",,x\nlast,"",end';
  const expected = [
    { line: 1, fields: ["a", "b", "c"] },
    { line: 2, fields: ["1", "two, with comma", 'say "hi"'] },
    { line: 4, fields: ["multi\nline", "", "x"] },
    { line: 6, fields: ["last", "", "end"] },
  ];

  test.each([1, 2, 3, 5, 7, 64])("reads records in chunks of %d characters as the whole text", async (size) => {
    expect(await rowsOf(file, size)).toEqual(expected);
  });

  test("reads back what the writer wrote", async () => {
    const fields = ["plain", "a,b", 'q"uote', "line\r\nbreak", "", " spaced "];
    expect(await rowsOf(csvRow(fields) + csvRow(fields))).toEqual([
      { line: 1, fields },
      { line: 3, fields },
    ]);
  });

  test("reports broken quoting on its line and goes on at the next", async () => {
    expect(await rowsOf('a,b\n"x"y,z\nok,1\n"never closed,2\n')).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 2, problem: "a quoted field must be followed by a comma or the end of the line" },
      { line: 3, fields: ["ok", "1"] },
      { line: 4, problem: "a quoted field is never closed" },
    ]);
  });

  test("an over-long record (a quote never closed) is a problem, not a file held in memory", async () => {
    const text = `a\n"${"x\n".repeat(maxRecordChars)}`;
    const rows = await rowsOf(text, 4096);
    expect(rows[0]).toEqual({ line: 1, fields: ["a"] });
    expect(rows[1]).toEqual({ line: 2, problem: `a record is longer than ${maxRecordChars} characters (a quote never closed?)` });
  });

  test("keeps a quote inside an unquoted field, and a trailing empty field", async () => {
    expect(await rowsOf('5"inch,b,\n')).toEqual([{ line: 1, fields: ['5"inch', "b", ""] }]);
  });
});
