import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { splitCsvLine } from "@linkgeo/shared";
import type { ImportedLink } from "../src/links/link.ts";
import { LinkTargets } from "../src/links/link-targets.ts";
import type { Database } from "../src/storage/open-database.ts";
import type { ImportParser } from "../src/transfer/import-record.ts";
import { Importer } from "../src/transfer/importer.ts";
import { linkExport, type ExportFormat } from "../src/transfer/link-export.ts";
import { parseLinkgeoCsv } from "../src/transfer/linkgeo-csv-format.ts";
import { parseLinkgeoNdjson } from "../src/transfer/linkgeo-ndjson-format.ts";
import { storeEngines } from "./support/store-engines.ts";

const now = new Date("2026-12-01T00:00:00.000Z");
const day = 86_400_000;
const parsers: Record<ExportFormat, ImportParser> = { csv: parseLinkgeoCsv, ndjson: parseLinkgeoNdjson };

/** Links with every kind of field: tags, each option, counts, visits and changes on other days. */
function sourceLinks(): ImportedLink[] {
  return Array.from({ length: 60 }, (_, i) => {
    const createdAt = new Date(now.getTime() - (i + 10) * day + i * 1_001);
    return {
      code: i % 7 === 0 ? `alias-${i}_x` : `gen${String(i).padStart(4, "0")}`,
      longUrl: `https://example.com/page/${i}?q=${i},${i + 1}&s=%22x%22`,
      manageTokenHash: `hash-${i}`,
      createdAt,
      updatedAt: new Date(createdAt.getTime() + (i % 3) * day),
      accessCount: i * 37,
      lastAccessedAt: i % 4 === 0 ? null : new Date(createdAt.getTime() + day / 2),
      tags: i % 2 === 0 ? ["launch", `t${i % 5}`] : [],
      title: i % 3 === 0 ? null : `Title ${i}, "quoted" — Größe ✓`,
      expiresAt: i % 5 === 0 ? new Date(now.getTime() + (i % 10 === 0 ? -day : day)) : null,
      maxVisits: i % 6 === 0 ? i * 37 + (i % 12 === 0 ? 0 : 5) || 1 : null,
      expiredUrl: i % 5 === 0 ? "https://example.com/gone" : null,
      redirectStatus: i % 4 === 1 ? 301 : i % 4 === 2 ? 308 : null,
      forwardQuery: i % 2 === 1,
      rules:
        i % 3 === 1
          ? [
              { when: { device: "ios", country: "DE" }, url: "https://example.com/de-ios" },
              { when: { language: "fr" }, url: "https://example.com/fr" },
            ]
          : [],
    };
  });
}

async function exportText(db: Database, format: ExportFormat): Promise<string> {
  // Every link on the default domain, whose host the import is told (below).
  return new Response(linkExport(db.links, { format, now, pageSize: 7, placeOf: (key) => ({ code: key, domain: "sho.rt" }) })).text();
}

async function* textChunks(text: string, size: number): AsyncGenerator<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

async function importText(db: Database, format: ExportFormat, text: string) {
  const importer = new Importer({ store: db.links, targets: new LinkTargets({ blockPrivate: false, blockedDomains: [], ownAddresses: [] }), clock: () => now });
  const events = [];
  for await (const event of importer.run(parsers[format](textChunks(text, 1_000)), { dryRun: false, requestHosts: [], batchSize: 16 })) events.push(event);
  return events;
}

const directions = [
  { from: storeEngines[0], to: storeEngines[1] },
  { from: storeEngines[1], to: storeEngines[0] },
];

describe.each(directions)("a round trip from $from.engine to $to.engine", ({ from, to }) => {
  let source: { db: Database; cleanup: () => Promise<void> };
  beforeAll(async () => {
    source = await from.open();
    await source.db.links.insertImported(sourceLinks());
  });
  afterAll(async () => {
    await source.db.close();
    await source.cleanup();
  });

  test.each(["ndjson", "csv"] as const)("keeps everything through %s: the second export is the first, byte for byte", async (format) => {
    const target = await to.open();
    try {
      const exported = await exportText(source.db, format);
      expect(exported.split("\n").length).toBeGreaterThan(60);
      expect(await importText(target.db, format, exported)).toEqual([
        { summary: { lines: format === "csv" ? 61 : 60, imported: 60, skipped: 0, problems: 0, dry_run: false, unknown_domains: [] } },
      ]);
      expect(await exportText(target.db, format)).toBe(exported);

      // Again: nothing changes.
      const again = await importText(target.db, format, exported);
      expect(again.at(-1)).toEqual({
        summary: { lines: format === "csv" ? 61 : 60, imported: 0, skipped: 60, problems: 0, dry_run: false, unknown_domains: [] },
      });
      expect(await exportText(target.db, format)).toBe(exported);
    } finally {
      await target.db.close();
      await target.cleanup();
    }
  });
});

/** Titles, tags and aliases a spreadsheet would run, and values that really start with the text mark `'`. */
const spreadsheetValues: Array<{ code: string; title: string; tags: string[]; titleCell: string; tagsCell: string }> = [
  {
    code: "-2-3",
    title: '=HYPERLINK("https://evil.example","click")',
    tags: ["-2-3", "launch"],
    titleCell: `'=HYPERLINK("https://evil.example","click")`,
    tagsCell: "'-2-3 launch",
  },
  { code: "-55", title: "'=1+2", tags: ["-5"], titleCell: "''=1+2", tagsCell: "-5" },
  { code: "at-sum", title: "@SUM(A1:A9)", tags: [], titleCell: "'@SUM(A1:A9)", tagsCell: "" },
  { code: "marks", title: "''-5", tags: [], titleCell: "'''-5", tagsCell: "" },
  { code: "plus", title: "+1+1", tags: ["-1-1"], titleCell: "'+1+1", tagsCell: "'-1-1" },
  { code: "semi", title: "x;=1+1;'=2", tags: [], titleCell: "x;'=1+1;''=2", tagsCell: "" },
  { code: "tis", title: "'Tis -5", tags: [], titleCell: "'Tis -5", tagsCell: "" },
  { code: "wide", title: "＝1+2", tags: [], titleCell: "'＝1+2", tagsCell: "" },
];

function spreadsheetLinks(): ImportedLink[] {
  return spreadsheetValues.map(({ code, title, tags }, i) => ({
    code,
    longUrl: `https://example.com/${i}`,
    manageTokenHash: `hash-${i}`,
    createdAt: new Date(now.getTime() - day),
    updatedAt: new Date(now.getTime() - day),
    accessCount: 0,
    lastAccessedAt: null,
    tags,
    title,
    expiresAt: null,
    maxVisits: null,
    expiredUrl: null,
    redirectStatus: null,
    forwardQuery: false,
    rules: [],
  }));
}

describe.each(directions)("cells a spreadsheet would run, from $from.engine to $to.engine", ({ from, to }) => {
  test("leave as text in the CSV and come back as they were, a real leading ' included", async () => {
    const source = await from.open();
    const target = await to.open();
    try {
      await source.db.links.insertImported(spreadsheetLinks());
      const exported = await exportText(source.db, "csv");
      const rows = exported.split("\r\n").slice(1, -1).map(splitCsvLine);
      expect(rows.map((fields) => ({ code: fields[0], title: fields[3], tags: fields[4] }))).toEqual(
        spreadsheetValues.map(({ code, titleCell, tagsCell }) => ({ code: code === "-2-3" ? "'-2-3" : code, title: titleCell, tags: tagsCell })),
      );

      expect(await importText(target.db, "csv", exported)).toEqual([
        { summary: { lines: spreadsheetValues.length + 1, imported: spreadsheetValues.length, skipped: 0, problems: 0, dry_run: false, unknown_domains: [] } },
      ]);
      for (const { code, title, tags } of spreadsheetValues) expect(await target.db.links.find(code)).toMatchObject({ code, title, tags });
      expect(await exportText(target.db, "csv")).toBe(exported);
    } finally {
      await Promise.all([source.db.close(), target.db.close()]);
      await Promise.all([source.cleanup(), target.cleanup()]);
    }
  });
});
