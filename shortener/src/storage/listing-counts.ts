import type { LinkPage } from "../links/link-store.ts";

// How both engines count a listing's matches and choose the index that reads them: one rule each, the engines
// supply the queries. Imported as a namespace (`counts.searchCount`) by each engine's link store.

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
