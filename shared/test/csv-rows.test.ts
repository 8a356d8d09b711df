import { describe, expect, test } from "bun:test";
import { CsvRowReader, maxRowLength, readCsvRows, splitCsvLine } from "@linkgeo/shared";
import { piecesOf } from "@linkgeo/testing";

function rowsOf(text: string) {
  const reader = new CsvRowReader();
  return [...reader.read(text), ...reader.finish()];
}

const textAfterQuote = 'a quoted field has text after its closing quote (a quote inside one is written "")';
const unclosedQuote = "a quoted field opened on this line is never closed";

describe("CsvRowReader", () => {
  test.each([
    ["plain fields", "a,b,c\n", [{ line: 1, fields: ["a", "b", "c"] }]],
    [
      "empty fields",
      "a,,\n,b,\n",
      [
        { line: 1, fields: ["a", "", ""] },
        { line: 2, fields: ["", "b", ""] },
      ],
    ],
    ["a quoted comma", '"a,b",c\n', [{ line: 1, fields: ["a,b", "c"] }]],
    ["a doubled quote", '"say ""hi""",x\n', [{ line: 1, fields: ['say "hi"', "x"] }]],
    ["a quote inside an unquoted field, kept as it is", 'ab"c,d\n', [{ line: 1, fields: ['ab"c', "d"] }]],
    [
      "a last line without its line end",
      "a\nb,c",
      [
        { line: 1, fields: ["a"] },
        { line: 2, fields: ["b", "c"] },
      ],
    ],
    [
      "CRLF line ends",
      "a,b\r\nc,d\r\n",
      [
        { line: 1, fields: ["a", "b"] },
        { line: 2, fields: ["c", "d"] },
      ],
    ],
    [
      "CR line ends",
      "a\rb\r",
      [
        { line: 1, fields: ["a"] },
        { line: 2, fields: ["b"] },
      ],
    ],
    ["mixed line ends", "a\r\nb\nc\rd", [1, 2, 3, 4].map((line, i) => ({ line, fields: [["a", "b", "c", "d"][i]!] }))],
    [
      "blank lines, skipped but counted",
      "\na\n\r\n\nb\n",
      [
        { line: 2, fields: ["a"] },
        { line: 5, fields: ["b"] },
      ],
    ],
    ["a BOM at the start", "\uFEFFa,b\n", [{ line: 1, fields: ["a", "b"] }]],
    ["an empty text", "", []],
  ])("reads %s", (_, text, rows) => {
    expect(rowsOf(text)).toEqual(rows);
  });

  test("numbers a row by the line it starts on, and the next by the lines the first spanned", () => {
    const text = 'a,"one\r\ntwo\nthree"\r\nb,c\n"x\n\ny"\nd\n';
    expect(rowsOf(text)).toEqual([
      { line: 1, fields: ["a", "one\r\ntwo\nthree"] },
      { line: 4, fields: ["b", "c"] },
      { line: 5, fields: ["x\n\ny"] },
      { line: 8, fields: ["d"] },
    ]);
  });

  test("reports text after a closing quote and reads on from the next line", () => {
    expect(rowsOf('a,"bad"x,c\nd,e\n')).toEqual([
      { line: 1, problem: textAfterQuote },
      { line: 2, fields: ["d", "e"] },
    ]);
  });

  test("reads again the lines a broken quoted field swallowed", () => {
    // The quote opened on line 1 is closed by the one before Good, followed by text: line 1 is broken, lines 2 and 3 are rows.
    expect(rowsOf('u1,"broken title,t\nu2,"Good",t2\nu3,x\n')).toEqual([
      { line: 1, problem: textAfterQuote },
      { line: 2, fields: ["u2", "Good", "t2"] },
      { line: 3, fields: ["u3", "x"] },
    ]);
  });

  test("reports a quote never closed and reads the lines after it", () => {
    expect(rowsOf('a,b\nc,"d\ne\nf,g')).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 2, problem: unclosedQuote },
      { line: 3, fields: ["e"] },
      { line: 4, fields: ["f", "g"] },
    ]);
  });

  test("reports a quote never closed on the last line", () => {
    expect(rowsOf('a\n"b,c')).toEqual([
      { line: 1, fields: ["a"] },
      { line: 2, problem: unclosedQuote },
    ]);
  });

  test("reports a row longer than the limit and goes on at the next line", () => {
    const long = "x".repeat(maxRowLength + 1);
    expect(rowsOf(`a\n${long},y\nb\n`)).toEqual([
      { line: 1, fields: ["a"] },
      { line: 2, problem: `the row is longer than ${maxRowLength} characters` },
      { line: 3, fields: ["b"] },
    ]);
  });

  test("reads again the lines of an over-long quoted field", () => {
    const lines = Array.from({ length: maxRowLength }, () => "x");
    expect(rowsOf(`a,"${lines.join("\n")}`)).toEqual([
      { line: 1, problem: `the row is longer than ${maxRowLength} characters` },
      ...lines.slice(1).map((x, i) => ({ line: i + 2, fields: [x] })),
    ]);
  });
});

describe("CsvRowReader on a file of broken quotes", () => {
  // A quote that never closes on every line: each line, read again, swallows the rest of the file up to a longest row.
  const everyLineBroken = `lat,lon\n${'a","""\n'.repeat(20_000)}`;
  const skippedAfter = (problem: string) =>
    `${problem}; the lines it swallowed are skipped, not read again: the file has more broken quotes than can be read again`;

  test("reads the swallowed lines again only up to a bound, then skips them and says so", () => {
    const rows = rowsOf(everyLineBroken);
    const [header, ...problems] = rows;
    expect(header).toEqual({ line: 1, fields: ["lat", "lon"] });
    // Read again: the text up to each broken row and one longest row, in all; the rest of each later broken row skipped.
    expect(problems.length).toBeLessThan(20);
    expect(problems.filter((row) => "problem" in row && row.problem === unclosedQuote).length).toBeGreaterThan(0);
    expect(problems.at(-1)).toEqual({ line: expect.any(Number), problem: skippedAfter(unclosedQuote) });
    expect(problems.every((row) => "problem" in row)).toBe(true);
  });

  test("reports the same rows wherever the text is cut", async () => {
    const whole = rowsOf(everyLineBroken);
    for (const cuts of [[1], [50_000], [maxRowLength, maxRowLength + 1, maxRowLength + 7], [3, 70_001, 100_000, 139_990]]) {
      const rows = [];
      for await (const row of readCsvRows(piecesOf(everyLineBroken, cuts))) rows.push(row);
      expect(rows).toEqual(whole);
    }
  });
});

describe("readCsvRows", () => {
  const tricky = '\uFEFFa,"b,\r\n""c"""\r\n"🎉 d",e\r\n"bad"x\r\nf,"g\r\nh';

  test("yields the same rows wherever the text is cut", async () => {
    const whole = rowsOf(tricky);
    for (let cut = 0; cut <= tricky.length; cut++) {
      const rows = [];
      for await (const row of readCsvRows(piecesOf(tricky, [cut]))) rows.push(row);
      expect(rows).toEqual(whole);
    }
  });

  test("yields the same rows from one-character pieces", async () => {
    const rows = [];
    for await (const row of readCsvRows(
      piecesOf(
        tricky,
        Array.from(tricky, (_, i) => i),
      ),
    ))
      rows.push(row);
    expect(rows).toEqual(rowsOf(tricky));
  });
});

describe("splitCsvLine", () => {
  test.each([
    ['"createdAt","shortCode","title"', ["createdAt", "shortCode", "title"]],
    ["\uFEFFlong_url,tags\r\n", ["long_url", "tags"]],
    ["", []],
  ])("splits %j", (line, fields) => {
    expect(splitCsvLine(line)).toEqual(fields);
  });
});
