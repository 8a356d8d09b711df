import { describe, expect, test } from "bun:test";
import { readShlinkExport } from "../../src/transfer/shlink-format.ts";
import { asUnixText, importSample, rowsOf, rowsThatDifferWhenCut } from "../support/import-pieces.ts";

// Written as shlink-web-component's ExportShortUrlsBtn does (json2csv: names and texts quoted, counts not), then given a BOM and CRLF.
const sample = await importSample("shlink.csv");

function sampleRows(lineEnd: string) {
  return [
    {
      line: 2,
      domain: "s.test",
      longUrl: "https://example.com/sale?a=1&b=2",
      code: "spring",
      title: "Spring sale, 50% off",
      tags: ["sales", "spring"],
      createdAt: new Date("2024-05-01T08:20:30Z"),
      accessCount: 42,
    },
    {
      line: 3,
      domain: "s.test",
      longUrl: "https://example.com/quote",
      code: "quote",
      title: 'He said "hi"',
      createdAt: new Date("2024-05-02T08:00:00Z"),
      accessCount: 0,
    },
    {
      line: 4,
      longUrl: "https://example.com/multi",
      code: "multi",
      title: `Two${lineEnd}lines`,
      tags: ["a", "b c"],
      createdAt: new Date("2024-05-03T12:00:00Z"),
      accessCount: 7,
    },
    { line: 6, problem: 'createdAt must be a date and time, as 2024-05-01T10:20:30Z, not "not a date"' },
    { line: 7, problem: 'visits must be a whole number, not "lots"' },
    { line: 8, problem: "the row has 6 fields where 8 are expected (an unquoted comma in a value?)" },
    { line: 9, problem: "the row has no long URL" },
    {
      line: 10,
      domain: "s.test",
      longUrl: "https://example.com/from-url",
      code: "from-url",
      title: "Émoji 🎉",
      createdAt: new Date("2024-05-07T07:30:00Z"),
      accessCount: 5,
    },
    { line: 11, problem: 'a quoted field has text after its closing quote (a quote inside one is written "")' },
    {
      line: 12,
      domain: "s.test",
      longUrl: "https://example.com/last",
      code: "last",
      title: "Last",
      tags: ["final"],
      createdAt: new Date("2024-05-09T00:00:00Z"),
      accessCount: 9,
    },
  ];
}

describe("readShlinkExport", () => {
  test("reads the sample export, reporting its broken rows by line", async () => {
    expect(await rowsOf(readShlinkExport, sample)).toEqual(sampleRows("\r\n"));
  });

  test("reads it as the web client writes it: LF line ends, no BOM", async () => {
    expect(await rowsOf(readShlinkExport, asUnixText(sample))).toEqual(sampleRows("\n"));
  });

  test("reads the same rows wherever the text is cut", async () => {
    expect(await rowsThatDifferWhenCut(readShlinkExport, sample)).toEqual([]);
  });

  test("reads an older client's export, without domain nor shortCode", async () => {
    const text = '"createdAt","shortUrl","longUrl","title","tags","visits"\n"2021-01-02T03:04:05+00:00","https://s.test/abc","https://example.com/a","","",3\n';
    expect(await rowsOf(readShlinkExport, text)).toEqual([
      { line: 2, longUrl: "https://example.com/a", code: "abc", createdAt: new Date("2021-01-02T03:04:05Z"), accessCount: 3 },
    ]);
  });
});
