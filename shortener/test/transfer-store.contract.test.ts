import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ImportedLink } from "../src/links/link.ts";
import type { LinkQuery } from "../src/links/link-store.ts";
import { noOptions } from "../src/links/link-options.ts";
import type { Database } from "../src/storage/open-database.ts";
import { storeEngines } from "./support/store-engines.ts";

const t0 = new Date("2026-11-22T07:09:09.291Z");
const t1 = new Date("2026-12-01T10:00:00.000Z");

function imported(code: string, overrides: Partial<ImportedLink> = {}): ImportedLink {
  return {
    code,
    longUrl: `https://example.com/${code}`,
    manageTokenHash: `hash-${code}`,
    createdAt: t0,
    updatedAt: t1,
    accessCount: 42,
    lastAccessedAt: t1,
    ...overrides,
  };
}

// The store methods of export and import, on a database of their own: an export reads every link.
describe.each(storeEngines)("the link store's export and import on $engine", ({ open }) => {
  let db: Database;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ db, cleanup } = await open());
  });
  afterAll(async () => {
    await db.close();
    await cleanup();
  });

  test("inserts a batch with its counts, dates and options as given, and answers the codes it inserted", async () => {
    const options = {
      expiresAt: new Date("2031-01-02T03:04:05.678Z"),
      maxVisits: 500,
      expiredUrl: "https://example.com/over",
      redirectStatus: 308 as const,
      tags: ["launch", "q4"],
      title: 'Größe, "quoted"',
      forwardQuery: true,
      rules: [{ when: { device: "ios" as const }, url: "https://example.com/ios" }],
    };
    expect(await db.links.insertImported([imported("imp-a", options), imported("imp-b", { lastAccessedAt: null, accessCount: 0 })])).toEqual([
      "imp-a",
      "imp-b",
    ]);
    expect(await db.links.find("imp-a")).toEqual({
      ...noOptions,
      workspaceId: null,
      hold: null,
      holdReason: null,
      createdBy: null,
      ...options,
      code: "imp-a",
      longUrl: "https://example.com/imp-a",
      manageTokenHash: "hash-imp-a",
      accessCount: 42,
      lastAccessedAt: t1,
      createdAt: t0,
      updatedAt: t1,
    });
    expect(await db.links.find("imp-b")).toMatchObject({ ...noOptions, accessCount: 0, lastAccessedAt: null });
  });

  test("leaves taken codes alone: neither the stored link nor a second one of the batch changes", async () => {
    await db.links.insertImported([imported("imp-taken")]);
    const inserted = await db.links.insertImported([
      imported("imp-taken", { longUrl: "https://other.example/" }),
      imported("imp-new"),
      imported("imp-new", { longUrl: "https://other.example/twice", manageTokenHash: "hash-twice" }),
    ]);
    expect(inserted).toEqual(["imp-new"]);
    expect((await db.links.find("imp-taken"))?.longUrl).toBe("https://example.com/imp-taken");
    expect((await db.links.find("imp-new"))?.longUrl).toBe("https://example.com/imp-new");
  });

  test("an imported link is found by search and by tag at once; links created after it, and its deletion, keep both in step", async () => {
    const codesOf = async (query: { search?: string; tag?: string }) =>
      (await db.links.list({ offset: 0, limit: 10, ...query })).links.map((link) => link.code).sort();
    await db.links.insertImported([
      imported("imp-zebra", { longUrl: "https://example.com/zebra-crossing", tags: ["striped", "road"] }),
      imported("imp-plain", { tags: ["road"] }),
    ]);
    expect(await codesOf({ search: "zebra-cross" })).toEqual(["imp-zebra"]);
    expect(await codesOf({ tag: "striped" })).toEqual(["imp-zebra"]);
    await db.links.insert({
      code: "new-zebra",
      longUrl: "https://example.com/zebra-crossing-2",
      manageTokenHash: "hash-new-zebra",
      createdAt: t1,
      tags: ["striped"],
    });
    expect(await codesOf({ search: "zebra-cross" })).toEqual(["imp-zebra", "new-zebra"]);
    expect(await codesOf({ tag: "striped" })).toEqual(["imp-zebra", "new-zebra"]);
    expect(await db.links.delete("imp-zebra")).toBe(true);
    expect(await codesOf({ search: "zebra-cross" })).toEqual(["new-zebra"]);
    expect(await codesOf({ tag: "road" })).toEqual(["imp-plain"]);
  });

  test("an imported link sorts by its imported count and last visit at once, and a used-up one is exhausted", async () => {
    await db.links.insertImported([
      imported("imp-sort-few", { longUrl: "https://example.com/imp-sort", accessCount: 7, lastAccessedAt: t0 }),
      imported("imp-sort-many", { longUrl: "https://example.com/imp-sort", accessCount: 9_000, lastAccessedAt: t1, maxVisits: 9_000 }),
    ]);
    const codesOf = async (query: Partial<LinkQuery>) =>
      (await db.links.list({ offset: 0, limit: 10, search: "imp-sort", ...query })).links.map((link) => link.code);
    expect(await codesOf({ order: "most_visited" })).toEqual(["imp-sort-many", "imp-sort-few"]);
    expect(await codesOf({ order: "last_visited" })).toEqual(["imp-sort-many", "imp-sort-few"]);
    expect(await codesOf({ state: { is: "exhausted", at: t1 } })).toEqual(["imp-sort-many"]);
  });

  test("keeps every tag as given, one named null too (a word an array literal reads as NULL), and finds the link by it", async () => {
    expect(await db.links.insertImported([imported("imp-null-tag", { tags: ["null", "x-null", "nul"] }), imported("imp-beside")])).toEqual([
      "imp-null-tag",
      "imp-beside",
    ]);
    expect((await db.links.find("imp-null-tag"))?.tags).toEqual(["null", "x-null", "nul"]);
    expect((await db.links.list({ offset: 0, limit: 10, tag: "null" })).links.map((link) => link.code)).toEqual(["imp-null-tag"]);
  });

  test("an empty batch inserts nothing", async () => {
    expect(await db.links.insertImported([])).toEqual([]);
  });

  test("finds the links of many codes at once, leaving out the missing", async () => {
    await db.links.insertImported([imported("many-1"), imported("many-2")]);
    const found = await db.links.findMany(["many-1", "many-2", "many-none"]);
    expect(found.map((link) => link.code).sort()).toEqual(["many-1", "many-2"]);
    expect(await db.links.findMany([])).toEqual([]);
  });

  test("pages through every link in byte order of the code, each once", async () => {
    await db.links.insertImported(["pg-B", "pg-a", "pg-A", "pg-_", "pg-0", "pg--"].map((code) => imported(code)));
    const all = (await db.links.exportPage(null, 1_000)).map((link) => link.code);
    expect(all).toEqual([...all].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    const paged: string[] = [];
    for (let after: string | null = null; ; ) {
      const page = await db.links.exportPage(after, 3);
      if (page.length === 0) break;
      paged.push(...page.map((link) => link.code));
      after = page.at(-1)!.code;
    }
    expect(paged).toEqual(all);
    expect(all).toContain("pg-_");
  });
});
