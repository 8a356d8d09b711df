import { describe, expect, test } from "bun:test";
import { type ForeignFormat, foreignParsers, guessFormat } from "../../src/transfer/foreign-formats.ts";
import { importSample } from "../support/import-pieces.ts";

describe("guessFormat", () => {
  test.each([
    ["plain.csv", "csv"],
    ["plain-headerless.csv", "csv"],
    ["shlink.csv", "shlink"],
    ["bitly.csv", "bitly"],
    ["yourls.csv", "yourls"],
    ["yourls-headerless.csv", "yourls"],
  ])("knows the first line of %s as %s", async (name, format) => {
    const [firstLine = ""] = (await importSample(name)).split("\n");
    expect(guessFormat(firstLine)).toBe(format as ForeignFormat);
  });

  test.each([
    ['"createdAt","shortUrl","longUrl","title","tags","visits"', "shlink"],
    ["id,link,long_url,title,created_at,tags,custom_bitlinks", "bitly"],
    ["Bitlink,Destination URL", "bitly"],
    ["long_url,short_url,title,tags", "csv"],
    ["url,code", "csv"],
    ["https://example.com/a,abc", "csv"],
    ["keyword,url,title,timestamp,ip,clicks", "yourls"],
    ["name,email", undefined],
    ["", undefined],
    ['{"long_url":"https://example.com/a"}', undefined],
  ])("guesses the format of %j", (line, format) => {
    expect(guessFormat(line)).toBe(format as ForeignFormat | undefined);
  });
});

const rowCount = 200_000;
// One row in 50,000 is broken (a single field), to show problems cost nothing either.
const brokenEvery = 50_000;

const generated: Record<ForeignFormat, { header: string; row: (i: number) => string }> = {
  csv: { header: "long_url,short_url,title,tags", row: (i) => `https://example.com/page/${i},c${i},"Title ${i}, quoted",a|b` },
  shlink: {
    header: '"createdAt","domain","shortCode","shortUrl","longUrl","title","tags","visits"',
    row: (i) => `"2024-05-01T10:20:30+02:00","s.test","c${i}","https://s.test/c${i}","https://example.com/page/${i}","Title ${i}","a|b",${i}`,
  },
  bitly: {
    header: "Date Created,Title,Bitlink,Custom Link,Long URL,Tags,Total Clicks",
    row: (i) => `2024-05-01 10:20:30,Title ${i},https://bit.ly/c${i},,https://example.com/page/${i},a,${i}`,
  },
  yourls: {
    header: '"keyword","url","title","timestamp","ip","clicks"',
    row: (i) => `"c${i}","https://example.com/page/${i}","Title ${i}","2024-05-01 10:20:30","192.0.2.1","${i}"`,
  },
};

/** A file of `rowCount` rows made as it is read, in pieces of a thousand rows: never whole in memory. */
async function* generatedFile(format: ForeignFormat): AsyncGenerator<string> {
  const { header, row } = generated[format];
  yield `\uFEFF${header}\r\n`;
  for (let first = 1; first <= rowCount; first += 1000) {
    const rows = Array.from({ length: 1000 }, (_, k) => ((first + k) % brokenEvery === 0 ? "broken" : row(first + k)));
    yield `${rows.join("\r\n")}\r\n`;
  }
}

function retainedHeap(): number {
  Bun.gc(true);
  return process.memoryUsage().heapUsed;
}

describe.each(Object.keys(foreignParsers) as ForeignFormat[])("the %s parser on a large file", (format) => {
  test(`reads ${rowCount} rows in bounded memory`, async () => {
    const before = retainedHeap();
    let records = 0;
    let problems = 0;
    let lastLine = 0;
    let mostRetained = 0;
    for await (const row of foreignParsers[format](generatedFile(format))) {
      if ("problem" in row) problems++;
      else records++;
      lastLine = row.line;
      if ((records + problems) % 50_000 === 0) mostRetained = Math.max(mostRetained, retainedHeap() - before);
    }
    expect({ records, problems, lastLine }).toEqual({ records: rowCount - rowCount / brokenEvery, problems: rowCount / brokenEvery, lastLine: rowCount + 1 });
    // The file is some 20 MB of text; holding its rows would retain far more than this.
    expect(mostRetained).toBeLessThan(8 * 1024 * 1024);
  });
});
