import { describe, expect, test } from "bun:test";
import { csvRow } from "@linkgeo/shared";
import { readPlainCsv } from "../../src/transfer/csv-format.ts";
import { asUnixText, importSample, rowsOf, rowsThatDifferWhenCut } from "../support/import-pieces.ts";

const sample = await importSample("plain.csv");

function sampleRows(lineEnd: string) {
  return [
    { line: 2, longUrl: "https://example.com/sale?a=1&b=2", code: "spring", title: "Spring sale, 50% off", tags: ["sales", "spring"] },
    { line: 3, longUrl: "https://example.com/quote", code: "hi-there", title: 'He said "hi"' },
    { line: 4, longUrl: "https://example.com/multi", title: `Two${lineEnd}lines`, tags: ["a", "b", "c"] },
    { line: 6, problem: "the row has 5 fields where 4 are expected (an unquoted comma in a value?)" },
    { line: 7, problem: "the row has no long URL" },
    { line: 9, longUrl: "https://example.com/emoji", title: "Émoji 🎉 title" },
    { line: 10, problem: 'a quoted field has text after its closing quote (a quote inside one is written "")' },
    { line: 11, longUrl: "https://example.com/last", code: "last", title: "Last", tags: ["final"] },
    { line: 12, problem: "a quoted field opened on this line is never closed" },
    { line: 13, longUrl: "https://example.com/after", title: "After" },
  ];
}

describe("readPlainCsv", () => {
  test("reads the sample (BOM, CRLF, columns in another order), reporting its broken rows by line", async () => {
    expect(await rowsOf(readPlainCsv, sample)).toEqual(sampleRows("\r\n"));
  });

  test("reads the sample with LF line ends and no BOM", async () => {
    expect(await rowsOf(readPlainCsv, asUnixText(sample))).toEqual(sampleRows("\n"));
  });

  test("reads the same rows wherever the text is cut", async () => {
    expect(await rowsThatDifferWhenCut(readPlainCsv, sample)).toEqual([]);
  });

  test("reads a file without a header whose lines start with a URL", async () => {
    expect(await rowsOf(readPlainCsv, await importSample("plain-headerless.csv"))).toEqual([
      { line: 1, longUrl: "https://example.com/one" },
      { line: 2, longUrl: "https://example.com/two", code: "two" },
      { line: 3, longUrl: "https://example.com/three", code: "three", title: "Three, the title", tags: ["a", "b"] },
    ]);
  });

  test("reports a fifth field in a file without a header", async () => {
    expect(await rowsOf(readPlainCsv, "https://example.com/a,a,A,t,extra\n")).toEqual([
      { line: 1, problem: "the row has 5 fields where 1 to 4 are expected (an unquoted comma in a value?)" },
    ]);
  });

  test.each([
    ["url,code", "url"],
    ["Long URL,Alias", "Long URL"],
    ["LONG_URL,Short_URL", "LONG_URL"],
  ])("finds the columns of header %j", async (header) => {
    expect(await rowsOf(readPlainCsv, `${header}\nhttps://example.com/a,abc\n`)).toEqual([{ line: 2, longUrl: "https://example.com/a", code: "abc" }]);
  });

  test("reads the cells our writer marked as text for spreadsheets (the admin page's selected links) back as they were", async () => {
    const text = [
      ["short_url", "long_url", "title", "tags"],
      ["-2-3", "https://example.com/a", '=HYPERLINK("https://evil.example")', "-2-3 launch"],
      ["-55", "https://example.com/b", "'=1+2", "-5"],
    ]
      .map(csvRow)
      .join("");
    expect(text.split("\r\n")[1]).toBe(`"'-2-3",https://example.com/a,"'=HYPERLINK(""https://evil.example"")","'-2-3 launch"`);
    expect(await rowsOf(readPlainCsv, text)).toEqual([
      { line: 2, longUrl: "https://example.com/a", code: "-2-3", title: '=HYPERLINK("https://evil.example")', tags: ["-2-3", "launch"] },
      { line: 3, longUrl: "https://example.com/b", code: "-55", title: "'=1+2", tags: ["-5"] },
    ]);
  });

  test("ignores columns it does not know, and rows of empty fields", async () => {
    expect(await rowsOf(readPlainCsv, "notes,long_url\nmine,https://example.com/a\n,\n")).toEqual([{ line: 2, longUrl: "https://example.com/a" }]);
  });

  test("reports a header without a long URL column once, and reads nothing after it", async () => {
    expect(await rowsOf(readPlainCsv, "name,link\nx,https://example.com/a\n")).toEqual([
      {
        line: 1,
        problem: "the first line is not a header naming the long URL's column (long_url, url), nor a row of data: the file cannot be read",
      },
    ]);
  });

  test("reads nothing from an empty file", async () => {
    expect(await rowsOf(readPlainCsv, "")).toEqual([]);
  });
});
