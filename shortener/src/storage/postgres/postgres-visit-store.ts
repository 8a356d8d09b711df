import type { Sql } from "postgres";
import type { Dimension } from "../../visits/link-visits.ts";
import type { DailyCount, FactCount, VisitBucket, VisitScope, VisitStore } from "../../visits/visit-store.ts";

// Any fixed number works; it only has to be the same in every replica (and not the migrations' one).
const foldLockId = 7_202_612;

export class PostgresVisitStore implements VisitStore {
  constructor(private readonly sql: Sql) {}

  async buckets({ code }: VisitScope, from: Date, to: Date): Promise<VisitBucket[]> {
    const range = this.sql`starts_at >= ${from.toISOString()}::timestamptz AND starts_at < ${to.toISOString()}::timestamptz`;
    const rows = await this.sql<{ starts_at: Date; hours: number; humans: number; bots: number }[]>`
      SELECT starts_at, hours, sum(humans)::float8 AS humans, sum(bots)::float8 AS bots
      FROM link_visit_buckets
      WHERE ${code === undefined ? range : this.sql`code = ${code} AND ${range}`}
      GROUP BY starts_at, hours ORDER BY starts_at`;
    return rows.map((row) => ({ startsAt: new Date(row.starts_at), hours: row.hours === 24 ? 24 : 1, humans: row.humans, bots: row.bots }));
  }

  async facts({ code }: VisitScope, fromDay: string, toDay: string): Promise<FactCount[]> {
    const range = this.sql`day BETWEEN ${fromDay}::date AND ${toDay}::date`;
    const rows = await this.sql<{ dimension: Dimension; value: string; visits: number }[]>`
      SELECT dimension, value, sum(visits)::float8 AS visits
      FROM link_visit_facts
      WHERE ${code === undefined ? range : this.sql`code = ${code} AND ${range}`}
      GROUP BY dimension, value`;
    return rows.map((row) => ({ dimension: row.dimension, value: row.value, visits: row.visits }));
  }

  async dailyCounts(codes: readonly string[], from: Date, to: Date): Promise<DailyCount[]> {
    // The primary key (code, starts_at) serves each code's range.
    return this.sql<DailyCount[]>`
      SELECT code, to_char(starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, sum(humans + bots)::float8 AS visits
      FROM link_visit_buckets
      WHERE code = ANY(${[...codes]}::text[])
        AND starts_at >= ${from.toISOString()}::timestamptz AND starts_at < ${to.toISOString()}::timestamptz
      GROUP BY code, day`;
  }

  async topLinks(from: Date, to: Date, limit: number): Promise<Array<{ code: string; visits: number }>> {
    return this.sql<{ code: string; visits: number }[]>`
      SELECT code, sum(humans + bots)::float8 AS visits
      FROM link_visit_buckets
      WHERE starts_at >= ${from.toISOString()}::timestamptz AND starts_at < ${to.toISOString()}::timestamptz
      GROUP BY code ORDER BY visits DESC, code LIMIT ${limit}`;
  }

  async foldHoursBefore(before: Date): Promise<number> {
    return this.sql.begin(async (tx) => {
      // One replica at a time; the others find the lock taken and leave it to that one.
      const [lock] = await tx<{ taken: boolean }[]>`SELECT pg_try_advisory_xact_lock(${foldLockId}) AS taken`;
      if (!lock?.taken) return 0;
      // A year of hours of many links is more than one statement_timeout's worth.
      await tx`SET LOCAL statement_timeout = '5min'`;
      const cutoff = before.toISOString();
      // Each day's sum lands on its midnight: a 1-hour bucket there becomes the day
      // (its own visits are in the sum), a day folded before gets the sum added.
      await tx`
        INSERT INTO link_visit_buckets (code, starts_at, hours, humans, bots)
        SELECT code, date_trunc('day', starts_at, 'UTC'), 24, sum(humans), sum(bots)
        FROM link_visit_buckets WHERE hours = 1 AND starts_at < ${cutoff}::timestamptz
        GROUP BY code, date_trunc('day', starts_at, 'UTC')
        ON CONFLICT (code, starts_at) DO UPDATE SET
          humans = CASE WHEN link_visit_buckets.hours = 24 THEN link_visit_buckets.humans + excluded.humans ELSE excluded.humans END,
          bots = CASE WHEN link_visit_buckets.hours = 24 THEN link_visit_buckets.bots + excluded.bots ELSE excluded.bots END,
          hours = 24`;
      const deleted = await tx`DELETE FROM link_visit_buckets WHERE hours = 1 AND starts_at < ${cutoff}::timestamptz`;
      return deleted.count;
    });
  }
}
