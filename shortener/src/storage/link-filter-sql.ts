import type { SQL } from "drizzle-orm";

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

export type FilterName = "tag" | "state" | "search";

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

/** `%`, `_` and `\` in a search are literal characters, not LIKE wildcards. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
