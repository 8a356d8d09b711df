import type { TransactionSql } from "postgres";
import type { LinkDay } from "../../visits/fact-days-moving.ts";
import type { Dimension } from "../../visits/link-visits.ts";
import { addFact, factDaysJson, factRowsMovedPerStep, linkDayKey, parseDayFacts, type DayFacts } from "../../visits/fact-days.ts";

/** Some links' days, as a summing step holds them: the documents read, and which of them are stored already. */
export interface LoadedFactDays {
  days: Map<string, DayFacts>;
  stored: Set<string>;
}

/**
 * The days' documents (migration 0030), with any rows the old layout
 * (link_visit_facts_old) still holds for them added in and deleted: a day is
 * written back whole, in one place. Under the visit log's lock, the only
 * writer of either table but a link's deletion.
 */
export async function loadFactDays(tx: TransactionSql, linkDays: ReadonlyArray<{ code: string; day: string }>): Promise<LoadedFactDays> {
  const loaded: LoadedFactDays = { days: new Map(), stored: new Set() };
  if (linkDays.length === 0) return loaded;
  const codes = linkDays.map((d) => d.code);
  const dayTexts = linkDays.map((d) => d.day);
  const documents = await tx<Array<{ code: string; day: string; facts: string }>>`
    SELECT f.code, f.day::text AS day, f.facts::text AS facts
    FROM unnest(${codes}::text[], ${dayTexts}::text[]::date[]) AS d(code, day)
    JOIN link_fact_days f ON f.code = d.code AND f.day = d.day`;
  for (const { code, day, facts } of documents) {
    const key = linkDayKey(code, day);
    loaded.days.set(key, parseDayFacts(facts));
    loaded.stored.add(key);
  }
  const oldRows = await tx<Array<{ code: string; day: string; dimension: Dimension; value: string; visits: number; bots: number }>>`
    DELETE FROM link_visit_facts_old o USING unnest(${codes}::text[], ${dayTexts}::text[]::date[]) AS d(code, day)
    WHERE o.code = d.code AND o.day = d.day
    RETURNING o.code, o.day::text AS day, o.dimension, o.value, o.visits::float8 AS visits, o.bots::float8 AS bots`;
  for (const { code, day, dimension, value, visits, bots } of oldRows) {
    const key = linkDayKey(code, day);
    let facts = loaded.days.get(key);
    if (!facts) {
      facts = new Map();
      loaded.days.set(key, facts);
    }
    addFact(facts, dimension, value, { visits, bots });
  }
  return loaded;
}

/**
 * Writes the days back: an UPDATE of those stored, an INSERT of the rest
 * (not INSERT … ON CONFLICT, whose speculative insert costs WAL records of
 * its own). A day of a link deleted meanwhile is not inserted.
 */
export async function storeFactDays(tx: TransactionSql, { days, stored }: LoadedFactDays): Promise<void> {
  const changed = { codes: [] as string[], days: [] as string[], facts: [] as string[] };
  const added = { codes: [] as string[], days: [] as string[], facts: [] as string[] };
  for (const [key, facts] of days) {
    // A day of visits without breakdowns (none to add, none stored) gets no row.
    if (facts.size === 0) continue;
    const [code, day] = key.split("\n") as [string, string];
    const into = stored.has(key) ? changed : added;
    into.codes.push(code);
    into.days.push(day);
    into.facts.push(factDaysJson(facts));
  }
  if (changed.codes.length > 0) {
    await tx`
      UPDATE link_fact_days SET facts = d.facts::jsonb
      FROM unnest(${changed.codes}::text[], ${changed.days}::text[]::date[], ${changed.facts}::text[]) AS d(code, day, facts)
      WHERE link_fact_days.code = d.code AND link_fact_days.day = d.day`;
  }
  if (added.codes.length > 0) {
    await tx`
      INSERT INTO link_fact_days (code, day, facts)
      SELECT d.code, d.day, d.facts::jsonb
      FROM unnest(${added.codes}::text[], ${added.days}::text[]::date[], ${added.facts}::text[]) AS d(code, day, facts)
      WHERE EXISTS (SELECT 1 FROM links WHERE links.code = d.code)`;
  }
}

/**
 * Moves one step of days from the old layout (link_visit_facts_old, a row
 * per value) into documents: the link-days of the first
 * `factRowsMovedPerStep` rows after `after`, each whole, in the caller's
 * transaction, under the visit log's lock.
 */
export async function moveFactDaysStep(tx: TransactionSql, after: LinkDay): Promise<{ moved: number; last?: LinkDay }> {
  const picked = await tx<LinkDay[]>`
    SELECT DISTINCT code, day::text AS day FROM (
      SELECT code, day FROM link_visit_facts_old WHERE (code, day) > (${after.code}, ${after.day}::date)
      ORDER BY code, day LIMIT ${factRowsMovedPerStep}
    ) AS rows
    ORDER BY code, day`;
  if (picked.length === 0) return { moved: 0 };
  await storeFactDays(tx, await loadFactDays(tx, picked));
  return { moved: picked.length, last: picked.at(-1) };
}
