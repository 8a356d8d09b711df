import { sql, type SQL } from "drizzle-orm";

/**
 * A listing's filters as both stores build them, each two ways: `plain`
 * tests a row as it is read (in index order, where matches are common);
 * `indexed` reads the matches through one index and tests the rest row by
 * row (`byTag`: the index is link_tags, and `besidesTag` the rest). Each
 * store writes the SQL of its engine; the shapes are the same.
 */
export interface Filter {
  plain: SQL;
  indexed: SQL;
  byTag?: string;
  besidesTag: SQL | undefined;
  searched: boolean;
}

export type FilterName = "tag" | "state" | "search" | "domain" | "workspace";

/**
 * One filter (a tag, a state, a search): its plain form, its row test
 * beside another index, and, when an index finds its matches, that way
 * (`through`) and, but for a search, their number up to a bound.
 */
export interface FilterPart {
  plain: SQL;
  test: SQL;
  through?: SQL;
  matchesUpTo?: () => Promise<number>;
}

/**
 * The listing's ?domain= (links/link-key.ts): an added domain's links are
 * one range of keys, read through the primary key; the default domain's
 * are the keys without a prefix, most links, tested row by row.
 */
export function domainPart(
  range: { from: string; to: string } | undefined,
  code: SQL,
  withoutPrefix: SQL,
  upTo: (query: SQL) => () => Promise<number>,
  table: SQL,
): FilterPart {
  if (range === undefined) return { plain: withoutPrefix, test: withoutPrefix };
  const inRange = sql`${code} >= ${range.from} AND ${code} < ${range.to}`;
  return { plain: inRange, test: inRange, through: inRange, matchesUpTo: upTo(sql`SELECT 1 FROM ${table} WHERE ${inRange}`) };
}

/** The listing of one workspace (docs/people.md): its links, read newest first through links_workspace_id_idx. */
export function workspacePart(workspaceId: number, column: SQL, upTo: (query: SQL) => () => Promise<number>, table: SQL): FilterPart {
  const ofWorkspace = sql`${column} = ${workspaceId}`;
  return { plain: ofWorkspace, test: ofWorkspace, through: ofWorkspace, matchesUpTo: upTo(sql`SELECT 1 FROM ${table} WHERE ${ofWorkspace}`) };
}

/** `%`, `_` and `\` in a search are literal characters, not LIKE wildcards. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
