import { describe, expect, test } from "bun:test";
import { readYourlsExport } from "../../src/transfer/yourls-format.ts";
import { asUnixText, importSample, rowsOf, rowsThatDifferWhenCut } from "../support/import-pieces.ts";

// yourls_url exported by phpMyAdmin with column names on the first line, then given a BOM and CRLF.
const sample = await importSample("yourls.csv");

function sampleRows(lineEnd: string) {
  return [
    {
      line: 2,
      longUrl: "https://example.com/sale?a=1&b=2",
      code: "spring",
      title: "Spring sale, 50% off",
      createdAt: new Date("2024-05-01T10:20:30Z"),
      accessCount: 42,
    },
    { line: 3, longUrl: "https://example.com/quote", code: "quote", title: 'He said "hi"', createdAt: new Date("2024-05-02T08:00:00Z"), accessCount: 0 },
    { line: 4, longUrl: "https://example.com/multi", code: "multi", title: `Two${lineEnd}lines`, createdAt: new Date("2024-05-03T12:00:00Z"), accessCount: 7 },
    { line: 6, longUrl: "https://example.com/null", code: "nulltitle", createdAt: new Date("2024-05-04T00:00:00Z"), accessCount: 1 },
    { line: 7, problem: 'timestamp must be a date and time, as 2024-05-01T10:20:30Z, not "0000-00-00 00:00:00"' },
    { line: 8, problem: 'clicks must be a whole number, not "-1"' },
    { line: 9, problem: "the row has no long URL" },
    { line: 10, problem: "the row has 4 fields where 6 are expected (an unquoted comma in a value?)" },
    { line: 11, longUrl: "https://example.com/emoji", code: "emoji", title: "Émoji 🎉", createdAt: new Date("2024-05-08T00:00:00Z"), accessCount: 5 },
    { line: 12, problem: 'a quoted field has text after its closing quote (a quote inside one is written "")' },
    { line: 13, longUrl: "https://example.com/last", code: "last", title: "Last", createdAt: new Date("2024-05-10T00:00:00Z"), accessCount: 9 },
  ];
}

describe("readYourlsExport", () => {
  test("reads the sample export, reporting its broken rows by line", async () => {
    expect(await rowsOf(readYourlsExport, sample)).toEqual(sampleRows("\r\n"));
  });

  test("reads it with LF line ends and no BOM", async () => {
    expect(await rowsOf(readYourlsExport, asUnixText(sample))).toEqual(sampleRows("\n"));
  });

  test("reads the same rows wherever the text is cut", async () => {
    expect(await rowsThatDifferWhenCut(readYourlsExport, sample)).toEqual([]);
  });

  test("never keeps the creator's IP address", async () => {
    expect(JSON.stringify(await rowsOf(readYourlsExport, sample))).not.toMatch(/192\.0\.2|2001:db8/);
  });

  test("reads a dump without a header, in the table's column order, NULL as \\N", async () => {
    expect(await rowsOf(readYourlsExport, await importSample("yourls-headerless.csv"))).toEqual([
      { line: 1, longUrl: "https://example.com/sale", code: "spring", title: "Spring sale", createdAt: new Date("2024-05-01T10:20:30Z"), accessCount: 42 },
      { line: 2, longUrl: "mailto:team@example.com", code: "nulltitle", createdAt: new Date("2024-05-04T00:00:00Z"), accessCount: 1 },
    ]);
  });

  test("reads the columns in any order", async () => {
    const text = "clicks,keyword,url\n3,abc,https://example.com/a\n";
    expect(await rowsOf(readYourlsExport, text)).toEqual([{ line: 2, longUrl: "https://example.com/a", code: "abc", accessCount: 3 }]);
  });
});
