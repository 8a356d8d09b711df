import { dimensions, type Dimension, type ValueVisits } from "./link-visits.ts";
import { otherValue, type NamedSoFar } from "./named-values.ts";
import type { FactRow } from "./visit-log.ts";

/**
 * One link's breakdowns of one UTC day, as the table link_fact_days keeps
 * them in one row (Postgres migration 0030, SQLite 0028): per breakdown,
 * each value's visits and the bots among them. Stored as the JSON
 * document `factDaysJson` writes:
 * `{"referrers": {"example.com": [visits, bots]}, "countries": {...}, ...}`.
 */
export type DayFacts = Map<Dimension, Map<string, ValueVisits>>;

/**
 * Rows of the old layout (a row per value) a step of the move takes, and
 * the rest of the last link-day they reach (at most 5 breakdowns of 101
 * values): one transaction of tens of milliseconds, which every report and,
 * on SQLite, every redirect waits behind.
 */
export const factRowsMovedPerStep = 5_000;

/** A link's day as the key of a map of days: code and YYYY-MM-DD. */
export const linkDayKey = (code: string, day: string) => `${code}\n${day}`;

const knownDimensions: ReadonlySet<string> = new Set(dimensions);

/**
 * A stored day's document as `factDaysJson` wrote it. What is not such a
 * document (a row edited by hand, a breakdown this version does not know,
 * counts that are not counts) is left out, not thrown at: one bad row must
 * not stop every summing step, and with it every report, for good.
 */
export function parseDayFacts(text: string): DayFacts {
  const facts: DayFacts = new Map();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return facts;
  }
  if (!isRecord(parsed)) return facts;
  for (const [dimension, values] of Object.entries(parsed)) {
    if (!knownDimensions.has(dimension) || !isRecord(values)) continue;
    for (const [value, counts] of Object.entries(values)) {
      if (!Array.isArray(counts) || counts.length !== 2) continue;
      const [visits, bots] = counts as unknown[];
      if (!isCount(visits) || !isCount(bots) || visits === 0 || bots > visits) continue;
      addFact(facts, dimension as Dimension, value, { visits, bots });
    }
  }
  return facts;
}

/** The document of a day: breakdowns in their fixed order, values in the order they came. */
export function factDaysJson(facts: DayFacts): string {
  const document: Record<string, Record<string, [number, number]>> = {};
  for (const dimension of dimensions) {
    const values = facts.get(dimension);
    if (!values || values.size === 0) continue;
    document[dimension] = Object.fromEntries([...values].map(([value, { visits, bots }]) => [value, [visits, bots]]));
  }
  return JSON.stringify(document);
}

/** Adds visits of one value to a day's breakdown. */
export function addFact(facts: DayFacts, dimension: Dimension, value: string, { visits, bots }: ValueVisits): void {
  let values = facts.get(dimension);
  if (!values) {
    values = new Map();
    facts.set(dimension, values);
  }
  const counted = values.get(value);
  if (counted) {
    counted.visits += visits;
    counted.bots += bots;
  } else values.set(value, { visits, bots });
}

/** What a day (or no day yet: undefined) names for one breakdown, for the bound on named values. */
export function namedIn(facts: DayFacts | undefined, dimension: Dimension): NamedSoFar {
  const values = facts?.get(dimension);
  if (!values) return { count: 0, has: () => false };
  return { count: values.size - (values.has(otherValue) ? 1 : 0), has: (value) => value !== otherValue && values.has(value) };
}

/** Adds a summing step's rows (visits/visit-log.ts boundedFactRows) to the days they belong to, creating the days not stored yet. */
export function addFactRows(days: Map<string, DayFacts>, rows: Iterable<FactRow>): void {
  for (const [code, day, dimension, value, visits, bots] of rows) {
    const key = linkDayKey(code, day);
    let facts = days.get(key);
    if (!facts) {
      facts = new Map();
      days.set(key, facts);
    }
    addFact(facts, dimension, value, { visits, bots });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
