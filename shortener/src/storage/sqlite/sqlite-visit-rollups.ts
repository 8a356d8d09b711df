import type { Database } from "bun:sqlite";
import { granularityMs } from "../../visits/visit-range.ts";
import { nextRollupStep } from "../../visits/visit-rollups.ts";

// The same as postgres-visit-rollups.ts on bun:sqlite. No lock is needed:
// SQLite has one writer, and each step, fold and deletion is one transaction.

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Days one rollup transaction sums, at most: a week holds SQLite's one
 * writer for about 0.3 s with 10,000 links visited a day; steps of one day
 * made summing a year 15 -> 38 s (the cost per step, not per row, grew).
 */
const rollupDaysPerStep = 7;

/** The rollups' edge, ms since the epoch: every bucket before it is summed. */
export function rolledUpThrough(sqlite: Database): number {
  return sqlite.query<{ through: number }, []>("SELECT through FROM visit_rollups WHERE id = 1").get()?.through ?? 0;
}

/**
 * Sums one step of finished days, from the rollups' edge toward `before`
 * (ms, a UTC midnight), in one transaction: at most `rollupDaysPerStep`
 * days, starting at the first day with visits. Returns the days it summed;
 * 0 when none were left (the edge is at `before`, past any empty days).
 */
export function rollUpStep(sqlite: Database, before: number): number {
  return sqlite.transaction(() => {
    const through = rolledUpThrough(sqlite);
    if (through >= before) return 0;
    // Days without visits are skipped in one step: the next starts at the first visit after the edge.
    const next = sqlite
      .query<{ bucket: number | null; fact: string | null; factDay: string | null }, [number, string]>(
        `SELECT (SELECT min(starts_at) FROM link_visit_buckets WHERE starts_at >= ?1) AS bucket,
           (SELECT min(day) FROM link_visit_facts_old WHERE day >= ?2) AS fact, (SELECT min(day) FROM link_fact_days WHERE day >= ?2) AS factDay`,
      )
      .get(through, day(through));
    const firsts = [next?.bucket, ...[next?.fact, next?.factDay].map((day) => (day == null ? null : Date.parse(`${day}T00:00:00Z`)))].filter(
      (first): first is number => first != null,
    );
    const step = nextRollupStep(through, firsts.length === 0 ? null : Math.min(...firsts), before, rollupDaysPerStep);
    if (step.from < step.to) sumDays(sqlite, step.from, step.to);
    sqlite.query("UPDATE visit_rollups SET through = ? WHERE id = 1").run(step.to);
    return Math.round((step.to - step.from) / granularityMs.day);
  })();
}

/** Adds the visits of [from, to) (whole UTC days) to the summed tables. */
function sumDays(sqlite: Database, from: number, to: number): void {
  // The span's buckets are read once, into a scratch table the three sums scan: read through the
  // starts_at index, each row costs a lookup in the (code, starts_at) primary key (~5 µs).
  sqlite.run(
    "CREATE TEMP TABLE IF NOT EXISTS rollup_buckets (code TEXT NOT NULL, starts_at INTEGER NOT NULL, hours INTEGER NOT NULL, visits INTEGER NOT NULL, humans INTEGER NOT NULL, bots INTEGER NOT NULL)",
  );
  sqlite
    .query(
      "INSERT INTO temp.rollup_buckets SELECT code, starts_at, hours, humans + bots, humans, bots FROM link_visit_buckets WHERE starts_at >= ?1 AND starts_at < ?2",
    )
    .run(from, to);
  sqlite.run(
    `INSERT INTO visit_totals (starts_at, hours, humans, bots)
     SELECT starts_at, max(hours), sum(humans), sum(bots) FROM temp.rollup_buckets GROUP BY starts_at
     ON CONFLICT (starts_at) DO UPDATE SET
       hours = max(hours, excluded.hours), humans = humans + excluded.humans, bots = bots + excluded.bots`,
  );
  sqlite.run(
    `INSERT INTO link_visit_days (code, day, visits)
     SELECT code, strftime('%Y-%m-%d', starts_at / 1000, 'unixepoch'), sum(visits) FROM temp.rollup_buckets GROUP BY 1, 2
     ON CONFLICT (code, day) DO UPDATE SET visits = visits + excluded.visits`,
  );
  sqlite.run(
    `INSERT INTO link_visit_months (code, month, visits)
     SELECT code, strftime('%Y-%m-01', starts_at / 1000, 'unixepoch'), sum(visits) FROM temp.rollup_buckets GROUP BY 1, 2
     ON CONFLICT (code, month) DO UPDATE SET visits = visits + excluded.visits`,
  );
  sqlite.run("DELETE FROM temp.rollup_buckets");
  sqlite
    .query(
      `INSERT INTO visit_fact_totals (day, dimension, value, visits, bots)
       SELECT day, dimension, value, sum(visits), sum(bots) FROM link_fact_rows
       WHERE day >= ?1 AND day < ?2 GROUP BY day, dimension, value
       ON CONFLICT (day, dimension, value) DO UPDATE SET visits = visits + excluded.visits, bots = bots + excluded.bots`,
    )
    .run(day(from), day(to));
}

/** Folds the summed hours before `cutoff` into days, as the fold does the links' own: the two stay bucket for bucket. Inside the fold's transaction. */
export function foldTotals(sqlite: Database, cutoff: number): void {
  sqlite
    .query(
      `INSERT INTO visit_totals (starts_at, hours, humans, bots)
       SELECT starts_at - starts_at % ${granularityMs.day}, 24, sum(humans), sum(bots)
       FROM visit_totals WHERE hours = 1 AND starts_at < ?1
       GROUP BY starts_at - starts_at % ${granularityMs.day}
       ON CONFLICT (starts_at) DO UPDATE SET
         humans = CASE WHEN hours = 24 THEN humans + excluded.humans ELSE excluded.humans END,
         bots = CASE WHEN hours = 24 THEN bots + excluded.bots ELSE excluded.bots END,
         hours = 24`,
    )
    .run(cutoff);
  sqlite.query("DELETE FROM visit_totals WHERE hours = 1 AND starts_at < ?").run(cutoff);
}

/**
 * Takes a link's visits back out of the every-link sums, and deletes its
 * summed days and months, before the link (and, by cascade, its rows) is
 * deleted in the same transaction.
 */
export function takeOutOfRollups(sqlite: Database, code: string): void {
  sqlite
    .query(
      `UPDATE visit_totals SET humans = visit_totals.humans - b.humans, bots = visit_totals.bots - b.bots
       FROM link_visit_buckets AS b WHERE b.code = ?1 AND visit_totals.starts_at = b.starts_at`,
    )
    .run(code);
  sqlite
    .query(
      `UPDATE visit_fact_totals SET visits = visit_fact_totals.visits - f.visits, bots = visit_fact_totals.bots - f.bots
       FROM (SELECT day, dimension, value, sum(visits) AS visits, sum(bots) AS bots FROM link_fact_rows WHERE code = ?1 GROUP BY 1, 2, 3) AS f
       WHERE visit_fact_totals.day = f.day AND visit_fact_totals.dimension = f.dimension AND visit_fact_totals.value = f.value`,
    )
    .run(code);
  // An hour nobody else had visits in, or a value nobody else had, is gone, not listed with 0.
  sqlite
    .query("DELETE FROM visit_totals WHERE humans <= 0 AND bots <= 0 AND starts_at IN (SELECT starts_at FROM link_visit_buckets WHERE code = ?1)")
    .run(code);
  sqlite
    .query(
      `DELETE FROM visit_fact_totals WHERE visits <= 0
         AND (day, dimension, value) IN (SELECT day, dimension, value FROM link_fact_rows WHERE code = ?1)`,
    )
    .run(code);
  sqlite.query("DELETE FROM link_visit_days WHERE code = ?").run(code);
  sqlite.query("DELETE FROM link_visit_months WHERE code = ?").run(code);
}
