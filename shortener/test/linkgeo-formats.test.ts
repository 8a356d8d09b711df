import { describe, expect, test } from "bun:test";
import { exportColumns } from "../src/transfer/exported-link.ts";
import type { ImportParser, ImportRow } from "../src/transfer/import-record.ts";
import { parseLinkgeoCsv } from "../src/transfer/linkgeo-csv-format.ts";
import { maxNdjsonLineLength, parseLinkgeoNdjson } from "../src/transfer/linkgeo-ndjson-format.ts";

async function* chunked(text: string, size: number): AsyncGenerator<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

async function parse(parser: ImportParser, text: string, size = 7): Promise<ImportRow[]> {
  const rows: ImportRow[] = [];
  for await (const row of parser(chunked(text, size))) rows.push(row);
  return rows;
}

const full = {
  short_url: "launch",
  domain: "go.brand.test",
  long_url: "https://example.com/a,b",
  title: 'A "title", with commas',
  tags: ["launch", "q4"],
  expires_at: "2030-01-01T00:00:00.000Z",
  max_visits: 10,
  expired_url: "https://example.com/over",
  redirect_status: 308,
  password_protected: false,
  forward_query: true,
  rules: [{ when: { country: "DE" }, url: "https://example.com/de" }],
  state: "active",
  access_count: 7,
  last_accessed_at: "2026-11-30T10:00:00.000Z",
  created_at: "2026-11-01T00:00:00.000Z",
  updated_at: "2026-11-02T00:00:00.000Z",
  public_stats: true,
};

const fullRecord = (line: number): ImportRow => ({
  line,
  code: "launch",
  domain: "go.brand.test",
  longUrl: "https://example.com/a,b",
  title: 'A "title", with commas',
  tags: ["launch", "q4"],
  expiresAt: new Date("2030-01-01T00:00:00.000Z"),
  maxVisits: 10,
  expiredUrl: "https://example.com/over",
  redirectStatus: 308 as const,
  passwordProtected: false,
  forwardQuery: true,
  rules: [{ when: { country: "DE" }, url: "https://example.com/de" }],
  accessCount: 7,
  lastAccessedAt: new Date("2026-11-30T10:00:00.000Z"),
  createdAt: new Date("2026-11-01T00:00:00.000Z"),
  updatedAt: new Date("2026-11-02T00:00:00.000Z"),
  publicStats: true,
});

const bare = { ...Object.fromEntries(exportColumns.map((column) => [column, null])), long_url: "https://example.com/bare", tags: [], rules: [] };

describe("linkgeo-ndjson", () => {
  test("reads every field of our export, and reports each bad line with its number", async () => {
    const text = [
      JSON.stringify(full),
      "",
      "{not json",
      JSON.stringify(bare),
      JSON.stringify({ ...full, access_count: -1 }),
      JSON.stringify({ title: "x" }),
      "[1]",
    ].join("\r\n");
    expect(await parse(parseLinkgeoNdjson, text)).toEqual([
      fullRecord(1),
      { line: 3, problem: "not valid JSON" },
      {
        line: 4,
        longUrl: "https://example.com/bare",
        tags: [],
        rules: [],
        lastAccessedAt: null,
        expiresAt: null,
        maxVisits: null,
        expiredUrl: null,
        redirectStatus: null,
      },
      { line: 5, problem: "access_count must be a whole number" },
      { line: 6, problem: "long_url is missing" },
      { line: 7, problem: "a line must be a JSON object" },
    ]);
  });
});

describe("linkgeo-ndjson's longest line", () => {
  // A line of `length` characters: a link whose title fills it (the importer cuts titles to 200 characters later).
  const lineOf = (length: number, code: string) => {
    const start = `{"short_url":"${code}","long_url":"https://example.com/long","title":"`;
    return `${start}${"t".repeat(length - start.length - 2)}"}`;
  };

  test.each([
    ["LF", "\n"],
    ["CRLF", "\r\n"],
  ])("a line longer than the limit is its problem; the lines around it are read (%s line ends)", async (_, end) => {
    const atLimit = lineOf(maxNdjsonLineLength, "at-limit");
    const text = [
      atLimit,
      lineOf(maxNdjsonLineLength + 1, "over"),
      JSON.stringify(bare),
      lineOf(3 * maxNdjsonLineLength, "far-over"),
      lineOf(maxNdjsonLineLength + 1, "last"),
    ].join(end);
    const rows = await parse(parseLinkgeoNdjson, text, 4096);
    expect(rows.map((row) => ("problem" in row ? row : { line: row.line, code: row.code }))).toEqual([
      { line: 1, code: "at-limit" },
      { line: 2, problem: `the line is longer than ${maxNdjsonLineLength} characters` },
      { line: 3, code: undefined },
      { line: 4, problem: `the line is longer than ${maxNdjsonLineLength} characters` },
      { line: 5, problem: `the line is longer than ${maxNdjsonLineLength} characters` },
    ]);
  });
});

describe("linkgeo-csv", () => {
  const header = exportColumns.join(",");

  test("reads every field of our export", async () => {
    const row =
      'launch,go.brand.test,"https://example.com/a,b","A ""title"", with commas",launch q4,2030-01-01T00:00:00.000Z,10,https://example.com/over,308,false,true,' +
      '"[{""when"":{""country"":""DE""},""url"":""https://example.com/de""}]",active,7,2026-11-30T10:00:00.000Z,2026-11-01T00:00:00.000Z,2026-11-02T00:00:00.000Z,true';
    expect(await parse(parseLinkgeoCsv, `${header}\r\n${row}\r\n`)).toEqual([fullRecord(2)]);
  });

  test("reports rows it cannot read with their lines", async () => {
    const text = `${header}\n,,,,,,,,,,,,,,,,,\nx,,https://example.com/,,,,,,,,,not json,,,,,,\nx,y\nx,,https://example.com/,,,,,,,maybe,,,,,,,,\n`;
    expect(await parse(parseLinkgeoCsv, text)).toEqual([
      { line: 2, problem: "long_url is missing" },
      { line: 3, problem: "rules must be JSON" },
      { line: 4, problem: "has 2 fields, the header 18" },
      { line: 5, problem: "password_protected must be true or false" },
    ]);
  });

  test("refuses a file whose header is not ours", async () => {
    expect(await parse(parseLinkgeoCsv, "url,name\nhttps://example.com/,x\n")).toEqual([
      { line: 1, problem: `not our CSV export: its header must name ${header}` },
    ]);
  });
});
