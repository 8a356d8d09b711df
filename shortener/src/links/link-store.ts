import type { LinkVisits } from "../visits/link-visits.ts";
import type { VisitAccess, VisitWriter } from "../visits/visit-writer.ts";
import type { CountedDestination, LinkState, VisitClaim } from "./destination.ts";
import type { LinkOrder } from "./link-order.ts";
import type { ImportedLink, Link, LinkChanges, NewLink } from "./link.ts";

export interface LinkPage {
  /** Links matching the query, across all pages: exact up to the store's `CountLimits.exact`, an estimate past it. */
  count: number;
  countIsEstimate: boolean;
  links: Link[];
  /** Whether a page follows this one (always exact: one row more is read). */
  hasMore: boolean;
}

/**
 * Up to `exact` matches the listing's count is exact; past it, counting
 * every match would cost a scan of up to every link on each page, so the
 * count is an estimate, flagged as one: the table's size (Postgres' own
 * statistics, SQLite's count) times the share of matches among the newest
 * `sample` links. A store takes other limits only in tests, which cross
 * them with a hundred links rather than ten thousand.
 */
export interface CountLimits {
  readonly exact: number;
  readonly sample: number;
}

export const defaultCountLimits: CountLimits = { exact: 10_000, sample: 5_000 };

/** How many links, in the page's order, a search or a filter reads before it asks the indexes instead (see each store's filteredPage). */
export const searchProbeRows = 5_000;

/** How many of the newest `CountLimits.sample` links match a search. */
export interface CountSample {
  matches: number;
  sampled: number;
}

/**
 * A search's count (with or without filters), the one rule for both engines: a search the sample says
 * more than twice `limits.exact` links match is estimated at once (its
 * exact count would collect every match first); any other is counted up to
 * one past the limit by `countUpTo`, and estimated only if it reaches it.
 */
export async function searchCount(
  limits: CountLimits,
  tableSize: number,
  sample: CountSample,
  countUpTo: () => Promise<number>,
): Promise<Pick<LinkPage, "count" | "countIsEstimate">> {
  const estimate = { count: estimatedCount(limits, tableSize, sample.matches, sample.sampled), countIsEstimate: true };
  if (sample.matches * (tableSize / Math.max(1, sample.sampled)) > 2 * limits.exact) return estimate;
  const exact = await countUpTo();
  return exact <= limits.exact ? { count: exact, countIsEstimate: false } : estimate;
}

/**
 * The count of a tag or state filter without a search, the one rule for
 * both engines: an index gives the matches (a tag's rows, the expired or
 * used-up links) or they are most links (`active`), so counting up to one
 * past `limits.exact` reads at most that many; only past it is the
 * sample asked for its share.
 */
export async function filterCount(
  limits: CountLimits,
  countUpTo: () => Promise<number>,
  tableSize: () => Promise<number>,
  sample: () => Promise<CountSample>,
): Promise<Pick<LinkPage, "count" | "countIsEstimate">> {
  const exact = await countUpTo();
  if (exact <= limits.exact) return { count: exact, countIsEstimate: false };
  const [size, { matches, sampled }] = await Promise.all([tableSize(), sample()]);
  return { count: estimatedCount(limits, size, matches, sampled), countIsEstimate: true };
}

/** A filter an index can read the matches of (a tag, an expired or used-up state): its matches, counted up to one past `CountLimits.exact`. */
export interface IndexedFilter<Name extends string> {
  name: Name;
  matchesUpTo: () => Promise<number>;
}

/**
 * Which index reads a filtered listing's matches, the others being tested
 * row by row (a planner told of every index may read a long list whole to
 * test the rows of a short one): the filter with the fewest matches, when
 * that is at most `limits.exact` (reading them is then bounded); past it,
 * the search index when there is one (`searchIndexed`: undefined is
 * returned), else the filter with the smallest share of the newest links
 * (`shares`, asked only then).
 */
export async function fewestMatches<Name extends string>(
  limits: CountLimits,
  filters: ReadonlyArray<IndexedFilter<Name>>,
  searchIndexed: boolean,
  shares: () => Promise<Record<Name, number>>,
): Promise<Name | undefined> {
  if (filters.length === 0 || (filters.length === 1 && !searchIndexed)) return filters[0]?.name;
  const counted = await Promise.all(filters.map(async ({ name, matchesUpTo }) => ({ name, matches: await matchesUpTo() })));
  const fewest = counted.reduce((best, next) => (next.matches < best.matches ? next : best));
  if (fewest.matches <= limits.exact) return fewest.name;
  if (searchIndexed) return undefined;
  const share = await shares();
  return counted.reduce((best, next) => (share[next.name] < share[best.name] ? next : best)).name;
}

/** The estimate past `limits.exact`: never below what was counted. */
export function estimatedCount(limits: CountLimits, tableSize: number, matchesInSample: number, sampleSize: number): number {
  const share = sampleSize === 0 ? 0 : matchesInSample / sampleSize;
  return Math.max(limits.exact + 1, Math.round(tableSize * share));
}

/** Links per statement of `insertMany`: 17 columns each stays well under both engines' bound on parameters (32,766 in SQLite). */
export const insertManyRows = 1_000;

/** `links` in `insertManyRows`-sized slices, each sorted by code (byte order, as the Postgres column sorts). */
export function insertManyChunks<T extends { code: string }>(links: readonly T[]): T[][] {
  // Concurrent multi-row inserts that take the same codes in different orders deadlock on Postgres:
  // in one order, the later waits for the earlier instead.
  const sorted = [...links].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const chunks: T[][] = [];
  for (let start = 0; start < sorted.length; start += insertManyRows) chunks.push(sorted.slice(start, start + insertManyRows));
  return chunks;
}

export type { VisitAccess } from "../visits/visit-writer.ts";

export interface LinkQuery {
  offset: number;
  limit: number;
  /** Case-insensitive substring of the code or the long URL. */
  search?: string;
  /** Default: newest first. */
  order?: LinkOrder;
  /** Only links with this tag (as stored: lower case, parseTag). */
  tag?: string;
  /** Only links in this state (linkState) at `at`: the service's clock, never the database's. */
  state?: { is: LinkState; at: Date };
  /** Read on the primary even with read replicas: the client asked for what it just wrote (`Cache-Control: no-cache`). */
  fresh?: boolean;
}

/**
 * Where links live. One implementation per engine (Postgres, SQLite); both
 * pass the same contract suite (`shortener/test/link-store.contract.test.ts`).
 */
export interface LinkStore extends VisitWriter<CountedDestination> {
  /** Inserts the link, or returns null when its code is already taken. */
  insert(link: NewLink): Promise<Link | null>;
  /**
   * Inserts each link whose code is free, of stored links and of the links
   * before it in `links`, in one statement per `insertManyRows` links, and
   * returns those it inserted, in any order; the others are left out, as
   * `insert` answers null. Concurrent calls over the same codes insert each
   * code once and never deadlock.
   */
  insertMany(links: readonly NewLink[]): Promise<Link[]>;
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
   * Inserts the imported links whose codes are free, in one transaction,
   * with their counts and dates as given, and answers the codes it
   * inserted. Of two with the same code, the first in `links` is inserted.
   */
  insertImported(links: readonly ImportedLink[]): Promise<string[]>;
}

/** `%`, `_` and `\` in a search are literal characters, not LIKE wildcards. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
