import type { Sql, TransactionSql } from "postgres";
import { nextRollupStep } from "../../visits/visit-rollups.ts";
import { plainPlans } from "./plain-plans.ts";
import { granularityMs } from "../../visits/visit-range.ts";

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Taken (for its transaction) by whatever rewrites the summed tables or the
 * rows they were summed from: the fold of old hours, a rollup step, and the
 * deletion of a link. So a deletion never takes back rows a fold is halfway
 * through, and two replicas never sum the same day. Any fixed number works;
 * it only has to be the same in every replica (and not the migrations' one).
 */
export const visitUpkeepLockId = 7_202_612;

/**
 * Days one rollup transaction sums, at most: one, because a link's deletion
 * waits for the lock a step holds (within its request's deadline), even
 * while a year of history is caught up after an upgrade.
 */
const rollupDaysPerStep = 1;

/** The rollups' edge, ms since the epoch: every bucket before it is summed. */
export async function rolledUpThrough(sql: Sql | TransactionSql): Promise<number> {
  const [row] = await sql<{ through: Date | string }[]>`SELECT through FROM visit_rollups WHERE id = 1`;
  return row ? new Date(row.through).getTime() : 0;
}

/**
 * Sums one step of finished days, from the rollups' edge toward `before`
 * (a UTC midnight), in one transaction: at most `rollupDaysPerStep` days,
 * starting at the first day with visits. Returns the days it summed; 0
 * when none were left (the edge is at `before`, past any empty days) or
 * another replica holds the lock.
 */
export async function rollUpStep(sql: Sql, before: Date): Promise<number> {
  return sql.begin(async (tx) => {
    const [lock] = await tx<{ taken: boolean }[]>`SELECT pg_try_advisory_xact_lock(${visitUpkeepLockId}) AS taken`;
    if (!lock?.taken) return 0;
    const through = await rolledUpThrough(tx);
    const edge = before.getTime();
    if (through >= edge) return 0;
    // Days without visits are skipped in one step: the next starts at the first visit after the edge.
    const [next] = await tx<{ first: number | null }[]>`
      SELECT extract(epoch FROM least(
        (SELECT min(starts_at) FROM link_visit_buckets WHERE starts_at >= ${iso(through)}::timestamptz),
        (SELECT min(day) FROM link_visit_facts_old WHERE day >= (${iso(through)}::timestamptz AT TIME ZONE 'UTC')::date)::timestamp AT TIME ZONE 'UTC',
        (SELECT min(day) FROM link_fact_days WHERE day >= (${iso(through)}::timestamptz AT TIME ZONE 'UTC')::date)::timestamp AT TIME ZONE 'UTC'
      )) * 1000 AS first`;
    const step = nextRollupStep(through, next?.first == null ? null : Number(next.first), edge, rollupDaysPerStep);
    if (step.from < step.to) await sumDays(tx, new Date(step.from), new Date(step.to));
    await tx`UPDATE visit_rollups SET through = ${iso(step.to)}::timestamptz WHERE id = 1`;
    return Math.round((step.to - step.from) / granularityMs.day);
  });
}

/** Adds the visits of [from, to) (whole UTC days) to the summed tables. */
async function sumDays(tx: TransactionSql, from: Date, to: Date): Promise<void> {
  await tx`SET LOCAL statement_timeout = '5min'`;
  await plainPlans(tx);
  await tx`
    INSERT INTO visit_totals (starts_at, hours, humans, bots)
    SELECT starts_at, max(hours), sum(humans), sum(bots) FROM link_visit_buckets
    WHERE starts_at >= ${from.toISOString()}::timestamptz AND starts_at < ${to.toISOString()}::timestamptz GROUP BY starts_at
    ON CONFLICT (starts_at) DO UPDATE SET
      hours = greatest(visit_totals.hours, excluded.hours), humans = visit_totals.humans + excluded.humans, bots = visit_totals.bots + excluded.bots`;
  await tx`
    INSERT INTO visit_fact_totals (day, dimension, value, visits, bots)
    SELECT day, dimension, value, sum(visits), sum(bots) FROM link_fact_rows
    WHERE day >= (${from.toISOString()}::timestamptz AT TIME ZONE 'UTC')::date AND day < (${to.toISOString()}::timestamptz AT TIME ZONE 'UTC')::date
    GROUP BY day, dimension, value
    ON CONFLICT (day, dimension, value) DO UPDATE SET visits = visit_fact_totals.visits + excluded.visits, bots = visit_fact_totals.bots + excluded.bots`;
  await tx`
    INSERT INTO link_visit_days (code, day, visits)
    SELECT code, (date_trunc('day', starts_at, 'UTC') AT TIME ZONE 'UTC')::date, sum(humans + bots) FROM link_visit_buckets
    WHERE starts_at >= ${from.toISOString()}::timestamptz AND starts_at < ${to.toISOString()}::timestamptz GROUP BY 1, 2
    ON CONFLICT (code, day) DO UPDATE SET visits = link_visit_days.visits + excluded.visits`;
  await tx`
    INSERT INTO link_visit_months (code, month, visits)
    SELECT code, (date_trunc('month', starts_at, 'UTC') AT TIME ZONE 'UTC')::date, sum(humans + bots) FROM link_visit_buckets
    WHERE starts_at >= ${from.toISOString()}::timestamptz AND starts_at < ${to.toISOString()}::timestamptz GROUP BY 1, 2
    ON CONFLICT (code, month) DO UPDATE SET visits = link_visit_months.visits + excluded.visits`;
}

/** Folds the summed hours before `cutoff` into days, as the fold does the links' own: the two stay bucket for bucket. */
export async function foldTotals(tx: TransactionSql, cutoff: Date): Promise<void> {
  await tx`
    INSERT INTO visit_totals (starts_at, hours, humans, bots)
    SELECT date_trunc('day', starts_at, 'UTC'), 24, sum(humans), sum(bots)
    FROM visit_totals WHERE hours = 1 AND starts_at < ${cutoff.toISOString()}::timestamptz
    GROUP BY date_trunc('day', starts_at, 'UTC')
    ON CONFLICT (starts_at) DO UPDATE SET
      humans = CASE WHEN visit_totals.hours = 24 THEN visit_totals.humans + excluded.humans ELSE excluded.humans END,
      bots = CASE WHEN visit_totals.hours = 24 THEN visit_totals.bots + excluded.bots ELSE excluded.bots END,
      hours = 24`;
  await tx`DELETE FROM visit_totals WHERE hours = 1 AND starts_at < ${cutoff.toISOString()}::timestamptz`;
}

/**
 * Takes a link's visits back out of the every-link sums, and deletes its
 * summed days and months, before the link (and, by cascade, its rows) is
 * deleted in the same transaction.
 */
export async function takeOutOfRollups(tx: TransactionSql, code: string): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(${visitUpkeepLockId})`;
  await plainPlans(tx);
  await tx`
    UPDATE visit_totals t SET humans = t.humans - b.humans, bots = t.bots - b.bots
    FROM link_visit_buckets b WHERE b.code = ${code} AND t.starts_at = b.starts_at`;
  await tx`
    UPDATE visit_fact_totals t SET visits = t.visits - f.visits, bots = t.bots - f.bots
    FROM (SELECT day, dimension, value, sum(visits) AS visits, sum(bots) AS bots FROM link_fact_rows WHERE code = ${code} GROUP BY 1, 2, 3) f
    WHERE t.day = f.day AND t.dimension = f.dimension AND t.value = f.value`;
  // An hour nobody else had visits in, or a value nobody else had, is gone, not listed with 0.
  await tx`
    DELETE FROM visit_totals t USING link_visit_buckets b
    WHERE b.code = ${code} AND t.starts_at = b.starts_at AND t.humans <= 0 AND t.bots <= 0`;
  await tx`
    DELETE FROM visit_fact_totals t USING link_fact_rows f
    WHERE f.code = ${code} AND t.day = f.day AND t.dimension = f.dimension AND t.value = f.value AND t.visits <= 0`;
  await tx`DELETE FROM link_visit_days WHERE code = ${code}`;
  await tx`DELETE FROM link_visit_months WHERE code = ${code}`;
}
