import type { LinkVisits } from "../visits/link-visits.ts";
import type { LinkOrder } from "./link-order.ts";
import type { VisitClaim } from "./destination.ts";
import type { ImportedLink, Link, LinkChanges, NewLink } from "./link.ts";

export interface LinkPage {
  /** Links matching the query, across all pages: exact up to `exactCountLimit`, an estimate past it. */
  count: number;
  countIsEstimate: boolean;
  links: Link[];
  /** Whether a page follows this one (always exact: one row more is read). */
  hasMore: boolean;
}

/**
 * Up to this many matches the listing's count is exact; past it, counting
 * every match would cost a scan of up to every link on each page, so the
 * count is an estimate, flagged as one: the table's size (Postgres' own
 * statistics, SQLite's count) times the share of matches among the newest
 * `countSampleSize` links.
 */
export const exactCountLimit = 10_000;
export const countSampleSize = 5_000;

/** How many links, in the page's order, a search reads before it asks the search index instead (see each store's searchPage). */
export const searchProbeRows = 5_000;

/** How many of the newest `countSampleSize` links match a search. */
export interface CountSample {
  matches: number;
  sampled: number;
}

/**
 * A search's count, the one rule for both engines: a search the sample says
 * more than twice `exactCountLimit` links match is estimated at once (its
 * exact count would collect every match first); any other is counted up to
 * one past the limit by `countUpTo`, and estimated only if it reaches it.
 */
export async function searchCount(
  tableSize: number,
  sample: CountSample,
  countUpTo: () => Promise<number>,
): Promise<Pick<LinkPage, "count" | "countIsEstimate">> {
  const estimate = { count: estimatedCount(tableSize, sample.matches, sample.sampled), countIsEstimate: true };
  if (sample.matches * (tableSize / Math.max(1, sample.sampled)) > 2 * exactCountLimit) return estimate;
  const exact = await countUpTo();
  return exact <= exactCountLimit ? { count: exact, countIsEstimate: false } : estimate;
}

/** The estimate past `exactCountLimit`: never below what was counted. */
export function estimatedCount(tableSize: number, matchesInSample: number, sampleSize: number): number {
  const share = sampleSize === 0 ? 0 : matchesInSample / sampleSize;
  return Math.max(exactCountLimit + 1, Math.round(tableSize * share));
}

/** How visits came: `unlocked`, with the right password of a protected link (the only way such a link counts one). */
export interface VisitAccess {
  unlocked: boolean;
}

export interface LinkQuery {
  offset: number;
  limit: number;
  /** Case-insensitive substring of the code or the long URL. */
  search?: string;
  /** Default: newest first. */
  order?: LinkOrder;
}

/**
 * Where links live. One implementation per engine (Postgres, SQLite); both
 * pass the same contract suite (`shortener/test/link-store.contract.test.ts`).
 */
export interface LinkStore {
  /** Inserts the link, or returns null when its code is already taken. */
  insert(link: NewLink): Promise<Link | null>;
  find(code: string): Promise<Link | null>;
  /** The link whose manage token has this SHA-256 (hex), or null; at most one has it. */
  findByManageTokenHash(hash: string): Promise<Link | null>;
  /** Replaces what `changes` names (the long URL, options); null when there is no such link. */
  update(code: string, changes: LinkChanges, at: Date): Promise<Link | null>;
  /** True when a link was deleted. */
  delete(code: string): Promise<boolean>;
  /**
   * Lets through as many of each link's visits as its options allow
   * (`grantedVisits`: none once expired or, unless `access.unlocked`, when it
   * has a password; no more than its cap leaves), under the link's row lock,
   * and adds those to its access count, and, when they carry
   * analytics, to its hourly humans/bots bucket and its daily breakdowns
   * (the hour and day of `at`, UTC; a breakdown names at most
   * `namedValuesPerDay` values a day, the rest is "other": named-values.ts),
   * all in one durable transaction, and
   * returns each existing link's claim: its destination and how many of its
   * visits went through (the first ones, `LinkVisits.first`). Visits of
   * links that do not exist are dropped. Concurrent calls from any number of
   * processes never lose an increment. Once `deadline` has aborted the write
   * must not commit (its callers have been told it failed); only a commit
   * already sent when it aborts may still land.
   */
  recordVisits(visits: ReadonlyMap<string, LinkVisits>, at: Date, deadline?: AbortSignal, access?: VisitAccess): Promise<Map<string, VisitClaim>>;
  list(query: LinkQuery): Promise<LinkPage>;
  /**
   * Up to `limit` links whose codes sort after `after` (null: from the
   * first), in code order (bytes, as both engines compare codes): an export
   * reads every link page by page on the primary key, in constant memory,
   * and a link created meanwhile is either in a later page or not at all.
   */
  exportPage(after: string | null, limit: number): Promise<Link[]>;
  /** The links with these codes that exist, in any order. */
  findMany(codes: readonly string[]): Promise<Link[]>;
  /**
   * Inserts the links whose codes are free, in one transaction, with their
   * counts and dates as given, and answers the codes it inserted. Of two
   * with the same code, the first in `links` is inserted.
   */
  insertMany(links: readonly ImportedLink[]): Promise<string[]>;
}

/** `%`, `_` and `\` in a search are literal characters, not LIKE wildcards. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
