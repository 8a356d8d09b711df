import { describe, expect, test } from "bun:test";
import { readBitlyExport } from "../../src/transfer/bitly-format.ts";
import { asUnixText, importSample, rowsOf, rowsThatDifferWhenCut } from "../support/import-pieces.ts";

// The dashboard's column names as migration guides quote them (Bitly documents no list), with a BOM and CRLF.
const sample = await importSample("bitly.csv");

function sampleRows(lineEnd: string) {
  return [
    {
      line: 2,
      longUrl: "https://example.com/sale?a=1&b=2",
      code: "spring",
      domain: "brand.test",
      title: "Spring sale, 50% off",
      tags: ["sales", "spring"],
      createdAt: new Date("2024-05-01T10:20:30Z"),
      accessCount: 42,
    },
    { line: 3, longUrl: "https://example.com/quote", code: "4ghiJKL", title: 'He said "hi"', createdAt: new Date("2024-05-02T08:00:00Z"), accessCount: 0 },
    {
      line: 4,
      longUrl: "https://example.com/multi",
      code: "multi1",
      title: `Two${lineEnd}lines`,
      tags: ["Marketing Q1", "b"],
      createdAt: new Date("2024-05-03T12:00:00Z"),
      accessCount: 7,
    },
    { line: 6, problem: 'created must be a date and time, as 2024-05-01T10:20:30Z, not "05/04/2024"' },
    { line: 7, problem: 'clicks must be a whole number, not "1.5"' },
    { line: 8, problem: "the row has no long URL" },
    { line: 9, problem: 'a quoted field has text after its closing quote (a quote inside one is written "")' },
    { line: 10, longUrl: "https://example.com/emoji", code: "emoji", title: "Émoji 🎉", createdAt: new Date("2024-05-08T00:00:00Z"), accessCount: 5 },
    { line: 11, problem: "the row has 8 fields where 7 are expected (an unquoted comma in a value?)" },
    { line: 12, problem: "a quoted field opened on this line is never closed" },
    { line: 13, longUrl: "https://example.com/after", code: "after", title: "After", createdAt: new Date("2024-05-11T00:00:00Z"), accessCount: 2 },
  ];
}

describe("readBitlyExport", () => {
  test("reads the sample export, reporting its broken rows by line", async () => {
    expect(await rowsOf(readBitlyExport, sample)).toEqual(sampleRows("\r\n"));
  });

  test("reads it with LF line ends and no BOM", async () => {
    expect(await rowsOf(readBitlyExport, asUnixText(sample))).toEqual(sampleRows("\n"));
  });

  test("reads the same rows wherever the text is cut", async () => {
    expect(await rowsThatDifferWhenCut(readBitlyExport, sample)).toEqual([]);
  });

  test("reads the fields of Bitly's API, as scripts export them", async () => {
    const text = [
      "id,link,long_url,title,created_at,tags,custom_bitlinks",
      'bit.ly/3kXyZ,https://bit.ly/3kXyZ,https://example.com/a,A,2020-10-26T17:20:40+0000,"news,q1","https://brand.test/my-a https://brand.test/other"',
      "bit.ly/4abc,https://bit.ly/4abc,https://example.com/b,,1603732840,,",
    ].join("\n");
    expect(await rowsOf(readBitlyExport, text)).toEqual([
      {
        line: 2,
        longUrl: "https://example.com/a",
        code: "my-a",
        domain: "brand.test",
        title: "A",
        tags: ["news", "q1"],
        createdAt: new Date("2020-10-26T17:20:40Z"),
      },
      { line: 3, longUrl: "https://example.com/b", code: "4abc", createdAt: new Date("2020-10-26T17:20:40Z") },
    ]);
  });

  test.each([
    ["Link,Destination URL,Engagements", "https://bit.ly/x1,https://example.com/a,5"],
    ["bitlink,original_url,clicks", "bit.ly/x1,https://example.com/a,5"],
  ])("finds the columns of header %j", async (header, row) => {
    expect(await rowsOf(readBitlyExport, `${header}\n${row}\n`)).toEqual([{ line: 2, longUrl: "https://example.com/a", code: "x1", accessCount: 5 }]);
  });
});
