import { expect, test } from "bun:test";
import { Database as SqliteDatabase } from "bun:sqlite";
import type { Logger } from "drizzle-orm";
import { drizzle as drizzleSqlite } from "drizzle-orm/bun-sqlite";
import { openSqliteDatabase } from "../src/storage/open-database.ts";
import { SqliteLinkStore } from "../src/storage/sqlite/sqlite-link-store.ts";
import { SqliteVisitLog } from "../src/storage/sqlite/sqlite-visit-log.ts";
import { LinkVisits } from "../src/visits/link-visits.ts";

/**
 * What a counted visit writes on SQLite, read from the plan of the count
 * write itself: SQLite rewrites every index that names a column its SET
 * assigns, whatever the value, so the statement that counts a plain link
 * must assign the counts only (no index names them), and a capped link's
 * statement its sort key too (the exhausted filter reads it).
 */
test("on SQLite a visit rewrites no index of links but the code's, and a capped link's visit its sort keys too", async () => {
  const sqlite = new SqliteDatabase(":memory:", { strict: true });
  openSqliteDatabase(sqlite);
  const statements: Array<{ query: string; params: unknown[] }> = [];
  const logger: Logger = { logQuery: (query, params) => statements.push({ query, params }) };
  const store = new SqliteLinkStore(drizzleSqlite({ client: sqlite, logger }), new SqliteVisitLog(sqlite));
  const roots = new Map(
    sqlite
      .query<{ name: string; rootpage: number }, []>("SELECT name, rootpage FROM sqlite_master WHERE tbl_name = 'links' AND rootpage > 0")
      .all()
      .map((row) => [row.rootpage, row.name]),
  );
  const written = (query: string, params: unknown[]) => {
    // Prepared and finalized here, not query()'s cached statement: one left open keeps the next transaction from committing.
    const explained = sqlite.prepare<{ opcode: string; p2: number }, never[]>(`EXPLAIN ${query}`);
    try {
      return explained
        .all(...(params as never[]))
        .filter((op) => op.opcode === "OpenWrite")
        .map((op) => roots.get(op.p2) ?? String(op.p2))
        .sort();
    } finally {
      explained.finalize();
    }
  };
  const countWriteOf = async (code: string, options: { maxVisits?: number }) => {
    await store.insert({ code, longUrl: `https://example.com/${code}`, manageTokenHash: `hash-${code}`, createdAt: new Date(), ...options });
    statements.length = 0;
    await store.recordVisits(new Map([[code, LinkVisits.counting(1)]]), new Date());
    const updates = statements.filter(({ query }) => /^update "links"/i.test(query));
    return updates.at(-1)!;
  };

  const plain = await countWriteOf("plain1", {});
  expect(written(plain.query, plain.params)).toEqual(["links", "sqlite_autoindex_links_1"]);
  const capped = await countWriteOf("capped1", { maxVisits: 5 });
  expect(written(capped.query, capped.params)).toEqual(["links", "links_exhausted_idx", "links_sorted_access_count_idx", "sqlite_autoindex_links_1"]);
  sqlite.close();
});
