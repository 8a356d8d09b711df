import { describe, expect, test } from "bun:test";
import { csvField, csvRow, neutralisedCell, restoredCell, splitCsvLine } from "@linkgeo/shared";

describe("the CSV writer (RFC 4180)", () => {
  test.each([
    ["plain", "plain"],
    ["", ""],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ["cr\rhere", '"cr\rhere"'],
    ["ünïcödé ✓", "ünïcödé ✓"],
    [" spaced ", " spaced "],
  ])("writes %j as %j", (value, written) => {
    expect(csvField(value)).toBe(written);
  });

  test("ends each record with CRLF", () => {
    expect(csvRow(["a", "b,c", ""])).toBe('a,"b,c",\r\n');
  });
});

describe("cells a spreadsheet would run", () => {
  test.each([
    ['=HYPERLINK("https://evil.example","click")', '"\'=HYPERLINK(""https://evil.example"",""click"")"'],
    ["@SUM(A1:A9)", '"\'@SUM(A1:A9)"'],
    ["+1+1", '"\'+1+1"'],
    ["-2-3", '"\'-2-3"'],
    ["=cmd|' /C calc'!A0", "\"'=cmd|' /C calc'!A0\""],
    ["\t=1+2", "\"'\t'=1+2\""],
    ["\tjust a tab first", '"\'\tjust a tab first"'],
    ["\r=1+2", "\"'\r'=1+2\""],
    ["  =1+2", '"\'  =1+2"'],
    ["\n@x", '"\n\'@x"'],
    ["\u00A0=1+2", '"\'\u00A0=1+2"'],
    ["\u3000=1+2", '"\'\u3000=1+2"'],
    ["＝1+2", '"\'＝1+2"'],
    ["＋1", '"\'＋1"'],
    ["－1－1", '"\'－1－1"'],
    ["＠SUM(A1)", '"\'＠SUM(A1)"'],
    ["+5", '"\'+5"'],
    ["-", '"\'-"'],
    ["-Infinity", '"\'-Infinity"'],
    ["- a list item", '"\'- a list item"'],
    // A value that really starts with the mark before a formula gets one more, so reading it back is exact.
    ["'=1+2", "\"''=1+2\""],
    ["''-5", "\"'''-5\""],
    ["' =1", "\"'' =1\""],
  ])("writes %j as text: %j", (value, written) => {
    expect(csvField(value)).toBe(written);
  });

  test.each([
    ["-5"],
    ["-73.98"],
    ["-0.5"],
    ["-.5"],
    ["-1e-7"],
    ["-1.5E+21"],
    ["48.8584"],
    ["0"],
    ["'Tis the season"],
    ["'"],
    ["''"],
    ["a=b"],
    ["x-1"],
    ["mail@example.com"],
    ["2026-12-01T00:00:00.000Z"],
    ["https://example.com/?q=-1"],
    ["[]"],
  ])("keeps %j as it is", (value) => {
    expect(csvField(value)).toBe(value);
  });

  test.each(["=1+2", "@SUM(A1)", "+1+1", "-2-3", "-5", "'-5", "'=1+2", "''=1+2", "'''@x", "'Tis", "'", "\t", "\tx", " =x", "' =x", "＝x", "'＝x", "", "plain"])(
    "reads %j back from its cell exactly",
    (value) => {
      expect(restoredCell(neutralisedCell(value))).toBe(value);
      expect(splitCsvLine(csvRow([value, "end"])).map(restoredCell)).toEqual([value, "end"]);
    },
  );

  test("reads back every value of up to four characters of marks, formula starts, digits and spaces exactly", () => {
    const alphabet = ["'", "=", "-", "+", "5", ".", " ", "\t", ";", "\n", "a"];
    let values = [""];
    for (let length = 1; length <= 4; length++) {
      values = [...values, ...values.filter((value) => value.length === length - 1).flatMap((value) => alphabet.map((c) => value + c))];
    }
    const wrong = values.filter((value) => restoredCell(neutralisedCell(value)) !== value);
    expect(wrong).toEqual([]);
  });

  test("leaves a cell nobody marked as it is", () => {
    expect(["-5", "'Tis", "'", "plain", "'x=1"].map(restoredCell)).toEqual(["-5", "'Tis", "'", "plain", "'x=1"]);
  });
});

describe("separators a spreadsheet may split on", () => {
  test.each([
    ["a;=1+2", '"a;\'=1+2"'],
    ["a\t=1+2", '"a\t\'=1+2"'],
    ["x;=cmd|' /C calc'!A0;y", "\"x;'=cmd|' /C calc'!A0;y\""],
    ["a\n@SUM(1)", '"a\n\'@SUM(1)"'],
    ["-5;x", '"\'-5;x"'],
    ["x;-5", '"x;-5"'],
    ["a;b", '"a;b"'],
  ])("marks each piece a spreadsheet splitting on ; or a tab would make a cell of, and quotes %j: %j", (value, written) => {
    expect(csvField(value)).toBe(written);
  });

  test("no cell starts a formula however a spreadsheet splits a row of ours, on , ; or a tab", () => {
    const values = ["x;=1+1;y", "x\t=1+1\ty", "a;b", "=1", "x;'=1", "'=1;=2", "-5;x", "y\n+1"];
    const row = csvRow(values);
    const formula = /^[^\S\t\r\n]*[=+\-@]/;
    const cellsSplitOn = (separator: string) => row.split(/\r\n|\n|\r/).flatMap((line) => line.split(separator));
    // Split on , the quotes hold: each field is read back as written.
    expect(splitCsvLine(row.trimEnd()).map(restoredCell)).toEqual(values);
    for (const separator of [";", "\t"]) {
      expect({ separator, formulas: cellsSplitOn(separator).filter((cell) => formula.test(cell.replace(/^"+/, ""))) }).toEqual({ separator, formulas: [] });
    }
  });
});
