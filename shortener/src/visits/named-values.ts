/**
 * How many distinct values one breakdown of one link names per UTC day; a
 * value that comes once the day names this many is counted as `otherValue`.
 * A flood of made-up Referer hosts (or anything else a client chooses) thus
 * adds visits to one row, not a row per value, so a link's day holds at most
 * this many rows per breakdown plus "other", and its report and the every-link
 * sums stay as cheap as for an ordinary link. Ten times the report's top list:
 * a day that names fewer values than this loses nothing.
 */
export const namedValuesPerDay = 100;

/**
 * The value holding the visits a breakdown does not name: those past the
 * bound, and those the classifier could not name (an unknown browser or
 * OS), which the reports already merge into the same tail.
 */
export const otherValue = "other";

/** What a link's day already holds for one breakdown. */
export interface NamedSoFar {
  /** Distinct values other than "other". */
  count: number;
  /** Whether the day already names `value`. */
  has(value: string): boolean;
}

/**
 * The order in which a batch's new values (value, visits) take a day's free
 * names: most visits first, then by value in code-unit order (Postgres' "C"
 * collation), so both engines name the same ones.
 */
export function byClaim([a, aVisits]: readonly [string, number], [b, bVisits]: readonly [string, number]): number {
  return bVisits - aVisits || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * One breakdown of a batch's visits (value -> visits), with the values that
 * find no name left counted as "other". A value the day already names, and
 * "other", keep their rows; new values take the free names `byClaim`. Each
 * visit stays counted exactly once.
 *
 * SQLite runs this as it is; Postgres adds the new values first and then
 * takes back those past the bound (postgres-link-store.ts), to the same end.
 */
export function withinNamedValues(batch: ReadonlyMap<string, number>, named: NamedSoFar): ReadonlyMap<string, number> {
  // Even if every value of the batch were new, the day would have room: the usual case, no lookups.
  if (named.count + batch.size <= namedValuesPerDay) return batch;
  const fresh = [...batch].filter(([value]) => value !== otherValue && !named.has(value)).sort(byClaim);
  const overflow = fresh.slice(Math.max(0, namedValuesPerDay - named.count));
  if (overflow.length === 0) return batch;
  const bounded = new Map(batch);
  for (const [value, visits] of overflow) {
    bounded.delete(value);
    bounded.set(otherValue, (bounded.get(otherValue) ?? 0) + visits);
  }
  return bounded;
}
