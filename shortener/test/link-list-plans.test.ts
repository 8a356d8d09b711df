import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { linkOrders, type LinkOrder } from "../src/links/link-order.ts";
import { linkOrderSql } from "../src/storage/link-order-sql.ts";
import { openRawDatabase, type RawDatabase } from "./support/raw-database.ts";

const indexOf: Record<LinkOrder, string> = {
  newest: "links_created_at_idx",
  most_visited: "links_sorted_access_count_idx",
  last_visited: "links_sorted_last_accessed_at_idx",
};

// What the planner would do with a page of each listing order: read it in index order, never sort every link.
const explain: Record<"sqlite" | "postgres", (raw: RawDatabase, orderBy: string) => Promise<string>> = {
  sqlite: async (raw, orderBy) =>
    (await raw.query(`EXPLAIN QUERY PLAN SELECT * FROM links ORDER BY ${orderBy} LIMIT 20 OFFSET 40`)).map((row) => row.detail).join("\n"),
  postgres: async (raw, orderBy) => {
    // On a near-empty table a sequential scan and a sort are cheapest; forbid the sort to see whether an index can stand in for it.
    await raw.query("SET enable_sort = off");
    return (await raw.query(`EXPLAIN SELECT * FROM links ORDER BY ${orderBy} LIMIT 20 OFFSET 40`)).map((row) => row["QUERY PLAN"]).join("\n");
  },
};

describe.each(["sqlite", "postgres"] as const)("the listing's orders on %s", (engine) => {
  let raw: RawDatabase;
  beforeAll(async () => {
    raw = await openRawDatabase(engine);
  });
  afterAll(async () => {
    await raw[Symbol.asyncDispose]();
  });

  // The counts a visit raises are in no index (columns or predicate): on Postgres the row's update is then HOT (no
  // index entry), on SQLite no index entry moves. The listing sorts on their copies (migration 0015 / 0014).
  test("no index of links names access_count or last_accessed_at", async () => {
    const counted = /\b(access_count|last_accessed_at)\b/;
    const indexes =
      engine === "postgres"
        ? await raw.query(`SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE tablename = 'links' AND schemaname = current_schema()`)
        : await raw.query(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'links' AND sql IS NOT NULL`);
    expect(indexes.map((index) => index.name)).toContain("links_sorted_access_count_idx");
    expect(indexes.filter((index) => counted.test(String(index.sql))).map((index) => index.name)).toEqual([]);
  });

  test.each([...linkOrders])("%s reads its index in order, with no sort", async (order) => {
    const plan = await explain[engine](raw, linkOrderSql[order]);
    expect(plan).toContain(indexOf[order]);
    expect(plan).not.toMatch(/\bsort\b|temp b-tree/i);
  });
});
