import { uploadText } from "@linkgeo/shared";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LinkTargets } from "../src/links/link-targets.ts";
import type { Database } from "../src/storage/open-database.ts";
import { guessFormat, parserFor } from "../src/transfer/format-registry.ts";
import { Importer, type ImportEvent } from "../src/transfer/importer.ts";
import { importedTags, importedTitle } from "../src/transfer/source-text.ts";
import { storeEngines } from "./support/store-engines.ts";

const fixture = (name: string) => new URL(`./fixtures/import/${name}`, import.meta.url).pathname;

/**
 * Each other tool's sample file, as `bun run import` reads it: the format
 * guessed from its first line, every row checked and stored, the broken
 * ones reported by line. A tag or title our rules would refuse is made
 * ours, never the reason a link is lost.
 */
describe.each(storeEngines)("importing other tools' files on $engine", ({ open }) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await open());
  });
  afterAll(async () => {
    await db.close();
    await cleanup();
  });

  const importFile = async (name: string) => {
    const upload = await uploadText(Bun.file(fixture(name)).stream(), Number.POSITIVE_INFINITY);
    const format = await guessFormat(upload.head);
    const importer = new Importer({
      store: db.links,
      targets: new LinkTargets({ blockPrivate: false, blockedDomains: [], ownAddresses: [] }),
      clock: () => new Date(),
    });
    const events: ImportEvent[] = [];
    for await (const event of importer.run(parserFor(format!)(upload.chunks), { dryRun: false, requestHosts: [] })) events.push(event);
    const summary = events.flatMap((event) => ("summary" in event ? [event.summary] : []))[0]!;
    return { format, summary, outcomes: events.flatMap((event) => ("outcome" in event ? [event.outcome] : [])) };
  };

  test.each([
    ["shlink.csv", "shlink", "spring"],
    ["bitly.csv", "bitly", "spring"],
    ["yourls.csv", "yourls", undefined],
    ["plain.csv", "csv", undefined],
  ])("%s is read as %s; its links are stored with their codes, counts, dates and tags, its broken rows reported", async (name, format, code) => {
    const imported = await importFile(name);
    expect(imported.format as string | undefined).toBe(format);
    expect(imported.summary.imported).toBeGreaterThan(0);
    expect(imported.outcomes.every((outcome) => outcome.line > 1)).toBe(true);
    if (code) {
      const link = await db.links.find(code);
      expect(link).toMatchObject({ longUrl: "https://example.com/sale?a=1&b=2", title: "Spring sale, 50% off", accessCount: 42 });
      expect(link!.tags).toEqual(["sales", "spring"]);
    }
    // A second run of the same file changes nothing.
    const again = await importFile(name);
    expect(again.summary.imported).toBe(0);
  });
});

describe("another tool's text made ours", () => {
  test("tags: lower case, a dash for what we do not allow, at most 32 characters, ten, once each", () => {
    const tags = importedTags(["Marketing Q1", "marketing-q1", "  ", "Ünïcode!", "x".repeat(40), ...Array.from({ length: 12 }, (_, i) => `t${i}`)]);
    expect(tags.slice(0, 4)).toEqual(["marketing-q1", "n-code", "x".repeat(32), "t0"]);
    expect(tags).toHaveLength(10);
  });

  test("titles: a line break is a space, at most 200 characters", () => {
    expect(importedTitle("two\r\nlines\ttabbed")).toBe("two lines tabbed");
    expect([...importedTitle("é".repeat(300))]).toHaveLength(200);
  });
});
