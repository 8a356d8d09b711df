import { dimensions, type Dimension, type LinkVisits, type ValueVisits } from "./link-visits.ts";
import { otherValue, withinNamedValues, type NamedSoFar } from "./named-values.ts";
import { granularityMs, utcDay } from "./visit-range.ts";

/**
 * One link's counted visits of one batch, as the batch wrote them to the
 * visit log in its own transaction: the redirect waits for this row only.
 * A summing step (VisitLogSumming) later adds log rows to the hourly
 * buckets and the daily breakdowns and deletes them, in one transaction.
 */
export interface LoggedVisits {
  code: string;
  /** When the batch left, ms since the epoch: its hour and UTC day. */
  at: number;
  humans: number;
  bots: number;
  /** (breakdown, value, visits, bots among them), every breakdown summing to humans + bots. */
  facts: LoggedFact[];
}

/** One value of one breakdown in a log row: its visits, and the bots among them. */
export type LoggedFact = [dimension: Dimension, value: string, visits: number, bots: number];

/**
 * Log rows one summing step takes at most: a step is one transaction, and a
 * read waits for the step in progress (on SQLite, so do the redirects: its
 * steps run on the event loop), so it stays short, about 0.1-0.2 s at a
 * million links spread uniformly, even while a backlog is caught up.
 */
export const visitLogRowsPerStep = 1_000;

/** What a batch logs for one link's visits: its facts as the log's JSON column holds them. */
export function loggedFacts(visits: LinkVisits): string {
  return JSON.stringify([...visits.factRows()]);
}

const knownDimensions: ReadonlySet<string> = new Set(dimensions);

/**
 * The facts of a log row as `loggedFacts` wrote them (JSON text). A triple
 * without its bots (a row a replica of the version before logged, during a
 * rolling upgrade) counts as humans. What is not such a row (a row edited
 * by hand, a format this version does not know) is left out rather than
 * thrown at: one bad row must not stop every summing step, and with it
 * every report, for good.
 */
export function parseLoggedFacts(text: string): LoggedFact[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const facts: LoggedFact[] = [];
  for (const fact of parsed) {
    if (!Array.isArray(fact) || (fact.length !== 3 && fact.length !== 4)) continue;
    const [dimension, value, visits, bots = 0] = fact as unknown[];
    if (typeof dimension !== "string" || !knownDimensions.has(dimension) || typeof value !== "string") continue;
    if (
      !Number.isSafeInteger(visits) ||
      (visits as number) <= 0 ||
      !Number.isSafeInteger(bots) ||
      (bots as number) < 0 ||
      (bots as number) > (visits as number)
    )
      continue;
    facts.push([dimension as Dimension, value, visits as number, bots as number]);
  }
  return facts;
}

/** A link's humans and bots in one hour, from a summing step. */
export interface BucketSum {
  code: string;
  /** The hour's first instant, ms. */
  startsAt: number;
  humans: number;
  bots: number;
}

/** A link's visits on one UTC day per breakdown and value, batch by batch as they were logged, from a summing step. */
export interface DaySum {
  code: string;
  /** YYYY-MM-DD */
  day: string;
  /** Oldest first: the bound on named values gives free names in the order visits came. */
  batches: Array<{ at: number; byDimension: Record<Dimension, Map<string, ValueVisits>> }>;
}

/**
 * Log rows summed per link and hour, and per link and UTC day: what one
 * summing step adds. Each day keeps its batches apart, oldest first (by the
 * time each batch left: the log itself is read in no particular order).
 */
export function sumLogged(rows: Iterable<LoggedVisits>): { buckets: BucketSum[]; days: DaySum[] } {
  const buckets = new Map<string, BucketSum>();
  const days = new Map<string, DaySum>();
  for (const row of [...rows].sort((a, b) => a.at - b.at)) {
    if (row.humans + row.bots === 0) continue;
    const startsAt = Math.floor(row.at / granularityMs.hour) * granularityMs.hour;
    const bucketKey = `${row.code}\n${startsAt}`;
    const bucket = buckets.get(bucketKey);
    if (bucket) {
      bucket.humans += row.humans;
      bucket.bots += row.bots;
    } else buckets.set(bucketKey, { code: row.code, startsAt, humans: row.humans, bots: row.bots });
    const day = utcDay(row.at);
    const dayKey = `${row.code}\n${day}`;
    let sum = days.get(dayKey);
    if (!sum) {
      sum = { code: row.code, day, batches: [] };
      days.set(dayKey, sum);
    }
    const byDimension = Object.fromEntries(dimensions.map((dimension) => [dimension, new Map<string, ValueVisits>()])) as Record<
      Dimension,
      Map<string, ValueVisits>
    >;
    for (const [dimension, value, visits, bots] of row.facts) addTo(byDimension[dimension], value, { visits, bots });
    sum.batches.push({ at: row.at, byDimension });
  }
  return { buckets: [...buckets.values()], days: [...days.values()] };
}

function addTo(counts: Map<string, ValueVisits>, value: string, { visits, bots }: ValueVisits): void {
  const counted = counts.get(value);
  if (counted) {
    counted.visits += visits;
    counted.bots += bots;
  } else counts.set(value, { visits, bots });
}

/** A day's breakdown rows to add: (code, day, dimension, value, visits, bots among them). */
export type FactRow = [code: string, day: string, dimension: Dimension, value: string, visits: number, bots: number];

/**
 * The breakdown rows a summing step adds, each day kept within the bound on
 * named values (named-values.ts) batch by batch, as if each batch had been
 * written on its own: `named` tells what a link's day already names for a
 * breakdown (the engine reads it under the summing lock, the only writer of
 * these rows), and each batch's new names count for the next.
 */
export function boundedFactRows(days: readonly DaySum[], named: (code: string, day: string, dimension: Dimension) => NamedSoFar): FactRow[] {
  const rows: FactRow[] = [];
  for (const { code, day, batches } of days) {
    for (const dimension of dimensions) {
      if (batches.every((batch) => batch.byDimension[dimension].size === 0)) continue;
      const stored = named(code, day, dimension);
      const added = new Set<string>();
      const soFar: NamedSoFar = {
        get count() {
          return stored.count + added.size;
        },
        has: (value) => added.has(value) || stored.has(value),
      };
      const totals = new Map<string, ValueVisits>();
      for (const batch of batches) {
        const counts = batch.byDimension[dimension];
        // The bound decides by visits; a value it turns into "other" takes its bots along.
        const kept = withinNamedValues(new Map([...counts].map(([value, counted]) => [value, counted.visits])), soFar);
        for (const [value, counted] of counts) {
          const name = kept.has(value) ? value : otherValue;
          if (name !== otherValue && !soFar.has(name)) added.add(name);
          addTo(totals, name, counted);
        }
      }
      for (const [value, { visits, bots }] of totals) rows.push([code, day, dimension, value, visits, bots]);
    }
  }
  return rows;
}
