import type { Database } from "bun:sqlite";
import type { Dimension } from "../../visits/link-visits.ts";
import { utcDay } from "../../visits/visit-range.ts";
import { splitAtRollups, splitDaysAtRollups, topLinksSources } from "../../visits/visit-rollups.ts";
import type { DailyCount, FactCount, FactDay, VisitBucket, VisitReads, VisitScope, VisitStore } from "../../visits/visit-store.ts";

import { FactDaysMoving } from "../../visits/fact-days-moving.ts";
import { visitLogRowsPerStep } from "../../visits/visit-log.ts";
import type { SqliteVisitLog } from "./sqlite-visit-log.ts";
import { foldTotals, rolledUpThrough, rollUpStep } from "./sqlite-visit-rollups.ts";

const dayMs = 86_400_000;

/** The same as PostgresVisitStore on bun:sqlite: `starts_at` in ms since the epoch, `day` as YYYY-MM-DD. */
export class SqliteVisitStore implements VisitStore {
  constructor(
    private readonly sqlite: Database,
    private readonly log: SqliteVisitLog,
  ) {}

  // One statement for one link and one for every link, never `(? IS NULL OR code = ?)`: SQLite plans a
  // statement once, and with that OR it cannot use the (code, ...) primary key for one link.
  async buckets({ code }: VisitScope, from: Date, to: Date): Promise<VisitBucket[]> {
    this.log.settle();
    type Row = { starts_at: number; hours: number; humans: number; bots: number };
    let rows: Row[];
    if (code !== undefined) {
      rows = this.sqlite
        .query<Row, [string, number, number]>(
          `SELECT starts_at, hours, humans, bots FROM link_visit_buckets
           WHERE code = ? AND starts_at >= ? AND starts_at < ? ORDER BY starts_at`,
        )
        .all(code, from.getTime(), to.getTime());
    } else {
      // Finished days from the sums, the rest (normally today) from every link's buckets.
      const { rolledUp, live } = splitAtRollups({ from: from.getTime(), to: to.getTime() }, rolledUpThrough(this.sqlite));
      rows = this.sqlite
        .query<Row, [number, number, number, number]>(
          `SELECT starts_at, max(hours) AS hours, sum(humans) AS humans, sum(bots) AS bots FROM (
             SELECT starts_at, hours, humans, bots FROM visit_totals WHERE starts_at >= ?1 AND starts_at < ?2
             UNION ALL
             SELECT starts_at, hours, humans, bots FROM link_visit_buckets WHERE starts_at >= ?3 AND starts_at < ?4
           ) GROUP BY starts_at ORDER BY starts_at`,
        )
        .all(rolledUp.from, rolledUp.to, live.from, live.to);
    }
    return rows.map((row) => ({ startsAt: new Date(row.starts_at), hours: row.hours === 24 ? 24 : 1, humans: row.humans, bots: row.bots }));
  }

  async facts({ code }: VisitScope, fromDay: string, toDay: string): Promise<FactCount[]> {
    this.log.settle();
    type Row = { dimension: Dimension; value: string; visits: number; bots: number };
    if (code !== undefined) {
      return this.sqlite
        .query<Row, [string, string, string]>(
          `SELECT dimension, value, sum(visits) AS visits, sum(bots) AS bots FROM link_fact_rows
           WHERE code = ? AND day BETWEEN ? AND ? GROUP BY dimension, value`,
        )
        .all(code, fromDay, toDay);
    }
    const { rolledUp, live } = splitDaysAtRollups(fromDay, toDay, rolledUpThrough(this.sqlite));
    return this.sqlite
      .query<Row, [string, string, string, string]>(
        `SELECT dimension, value, sum(visits) AS visits, sum(bots) AS bots FROM (
           SELECT dimension, value, visits, bots FROM visit_fact_totals WHERE day >= ?1 AND day < ?2
           UNION ALL
           SELECT dimension, value, visits, bots FROM link_fact_rows WHERE day >= ?3 AND day < ?4
         ) GROUP BY dimension, value`,
      )
      .all(rolledUp.fromDay, rolledUp.toDay, live.fromDay, live.toDay);
  }

  async factDays({ code }: VisitScope, dimension: Dimension, value: string, fromDay: string, toDay: string): Promise<FactDay[]> {
    this.log.settle();
    if (code !== undefined) {
      return this.sqlite
        .query<FactDay, [string, string, string, string, string]>(
          // Each document gives its one breakdown's values, not all of them (a dimension is one of five names: a safe path).
          `SELECT day, sum(visits) AS visits, sum(bots) AS bots FROM (
             SELECT day, visits, bots FROM link_visit_facts_old WHERE code = ?1 AND day BETWEEN ?2 AND ?3 AND dimension = ?4 AND value = ?5
             UNION ALL
             SELECT f.day, json_extract(v.value, '$[0]'), json_extract(v.value, '$[1]') FROM link_fact_days f, json_each(f.facts, '$.' || ?4) v
             WHERE f.code = ?1 AND f.day BETWEEN ?2 AND ?3 AND v.key = ?5
           ) GROUP BY day ORDER BY day`,
        )
        .all(code, fromDay, toDay, dimension, value);
    }
    const { rolledUp, live } = splitDaysAtRollups(fromDay, toDay, rolledUpThrough(this.sqlite));
    return this.sqlite
      .query<FactDay, [string, string, string, string, string, string]>(
        `SELECT day, sum(visits) AS visits, sum(bots) AS bots FROM (
           SELECT day, visits, bots FROM visit_fact_totals WHERE day >= ?1 AND day < ?2 AND dimension = ?5 AND value = ?6
           UNION ALL
           SELECT day, visits, bots FROM link_fact_rows WHERE day >= ?3 AND day < ?4 AND dimension = ?5 AND value = ?6
         ) GROUP BY day ORDER BY day`,
      )
      .all(rolledUp.fromDay, rolledUp.toDay, live.fromDay, live.toDay, dimension, value);
  }

  async dailyCounts(codes: readonly string[], from: Date, to: Date): Promise<DailyCount[]> {
    this.log.settle();
    // The codes travel as one JSON array: one statement whatever their number.
    return this.sqlite
      .query<DailyCount, [string, number, number]>(
        `SELECT code, strftime('%Y-%m-%d', starts_at / 1000, 'unixepoch') AS day, sum(humans + bots) AS visits
         FROM link_visit_buckets
         WHERE code IN (SELECT value FROM json_each(?)) AND starts_at >= ? AND starts_at < ?
         GROUP BY code, day`,
      )
      .all(JSON.stringify(codes), from.getTime(), to.getTime());
  }

  async topLinks(from: Date, to: Date, limit: number): Promise<Array<{ code: string; visits: number }>> {
    this.log.settle();
    const { months, days, buckets } = topLinksSources({ from: from.getTime(), to: to.getTime() }, rolledUpThrough(this.sqlite));
    const parts: Array<[string, Array<string | number>]> = [
      ["SELECT code, visits FROM link_visit_months WHERE month >= ? AND month < ?", [utcDay(months.from), utcDay(months.to)]],
      ...days.map((span): [string, string[]] => ["SELECT code, visits FROM link_visit_days WHERE day >= ? AND day < ?", [utcDay(span.from), utcDay(span.to)]]),
      ...buckets.map((span): [string, number[]] => [
        "SELECT code, humans + bots AS visits FROM link_visit_buckets WHERE starts_at >= ? AND starts_at < ?",
        [span.from, span.to],
      ]),
    ];
    return this.sqlite
      .query<{ code: string; visits: number }, Array<string | number>>(
        `SELECT code, sum(visits) AS visits FROM (${parts.map(([part]) => part).join(" UNION ALL ")}) GROUP BY code ORDER BY visits DESC, code LIMIT ?`,
      )
      .all(...parts.flatMap(([, values]) => values), limit);
  }

  async snapshot<T>(read: (reads: VisitReads) => Promise<T>): Promise<T> {
    // Each read is one synchronous statement on the service's connection, and a report starts its reads in one
    // turn of the event loop (Promise.all): nothing of this process writes between them.
    this.log.settle();
    return read(this);
  }

  /** The old layout's breakdowns, moved a step per summing turn (migration 0028). */
  private readonly moving = new FactDaysMoving(async (after) => this.log.moveStep(after));

  async sumVisitLog(): Promise<number> {
    // Step by step, with a turn of the event loop between: the steps run on it, and redirects wait meanwhile.
    let summed = 0;
    for (let step = visitLogRowsPerStep; step === visitLogRowsPerStep; summed += step) {
      if (summed > 0) await new Promise((resolve) => setImmediate(resolve));
      step = this.log.sumStep();
    }
    await this.moving.turn();
    return summed;
  }

  async rollUpBefore(before: Date): Promise<number> {
    this.log.settle();
    let days = 0;
    for (let step = rollUpStep(this.sqlite, before.getTime()); step > 0; step = rollUpStep(this.sqlite, before.getTime())) {
      days += step;
      // Between steps, let the redirects' writes in.
      await Bun.sleep(0);
    }
    return days;
  }

  async foldHoursBefore(before: Date): Promise<number> {
    this.log.settle();
    const cutoff = before.getTime();
    // One transaction: a reader sees the hours or the day, never neither or both.
    return this.sqlite.transaction(() => {
      this.sqlite
        .query(
          `INSERT INTO link_visit_buckets (code, starts_at, hours, humans, bots)
           SELECT code, starts_at - starts_at % ${dayMs}, 24, sum(humans), sum(bots)
           FROM link_visit_buckets WHERE hours = 1 AND starts_at < ?1
           GROUP BY code, starts_at - starts_at % ${dayMs}
           ON CONFLICT (code, starts_at) DO UPDATE SET
             humans = CASE WHEN hours = 24 THEN humans + excluded.humans ELSE excluded.humans END,
             bots = CASE WHEN hours = 24 THEN bots + excluded.bots ELSE excluded.bots END,
             hours = 24`,
        )
        .run(cutoff);
      const folded = this.sqlite.query("DELETE FROM link_visit_buckets WHERE hours = 1 AND starts_at < ?").run(cutoff).changes;
      foldTotals(this.sqlite, cutoff);
      return folded;
    })();
  }
}
