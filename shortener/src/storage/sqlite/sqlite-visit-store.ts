import type { Database } from "bun:sqlite";
import type { Dimension } from "../../visits/link-visits.ts";
import type { DailyCount, FactCount, VisitBucket, VisitScope, VisitStore } from "../../visits/visit-store.ts";

const dayMs = 86_400_000;

/** The same as PostgresVisitStore on bun:sqlite: `starts_at` in ms since the epoch, `day` as YYYY-MM-DD. */
export class SqliteVisitStore implements VisitStore {
  constructor(private readonly sqlite: Database) {}

  // One statement for one link and one for every link, never `(? IS NULL OR code = ?)`: SQLite plans a
  // statement once, and with that OR it cannot use the (code, ...) primary key for one link.
  async buckets({ code }: VisitScope, from: Date, to: Date): Promise<VisitBucket[]> {
    type Row = { starts_at: number; hours: number; humans: number; bots: number };
    const rows =
      code === undefined
        ? this.sqlite
            .query<Row, [number, number]>(
              `SELECT starts_at, hours, sum(humans) AS humans, sum(bots) AS bots FROM link_visit_buckets
               WHERE starts_at >= ? AND starts_at < ? GROUP BY starts_at, hours ORDER BY starts_at`,
            )
            .all(from.getTime(), to.getTime())
        : this.sqlite
            .query<Row, [string, number, number]>(
              `SELECT starts_at, hours, humans, bots FROM link_visit_buckets
               WHERE code = ? AND starts_at >= ? AND starts_at < ? ORDER BY starts_at`,
            )
            .all(code, from.getTime(), to.getTime());
    return rows.map((row) => ({ startsAt: new Date(row.starts_at), hours: row.hours === 24 ? 24 : 1, humans: row.humans, bots: row.bots }));
  }

  async facts({ code }: VisitScope, fromDay: string, toDay: string): Promise<FactCount[]> {
    type Row = { dimension: Dimension; value: string; visits: number };
    if (code === undefined) {
      return this.sqlite
        .query<Row, [string, string]>(
          `SELECT dimension, value, sum(visits) AS visits FROM link_visit_facts WHERE day BETWEEN ? AND ? GROUP BY dimension, value`,
        )
        .all(fromDay, toDay);
    }
    return this.sqlite
      .query<Row, [string, string, string]>(
        `SELECT dimension, value, sum(visits) AS visits FROM link_visit_facts WHERE code = ? AND day BETWEEN ? AND ? GROUP BY dimension, value`,
      )
      .all(code, fromDay, toDay);
  }

  async dailyCounts(codes: readonly string[], from: Date, to: Date): Promise<DailyCount[]> {
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
    return this.sqlite
      .query<{ code: string; visits: number }, [number, number, number]>(
        `SELECT code, sum(humans + bots) AS visits FROM link_visit_buckets
         WHERE starts_at >= ? AND starts_at < ?
         GROUP BY code ORDER BY visits DESC, code LIMIT ?`,
      )
      .all(from.getTime(), to.getTime(), limit);
  }

  async foldHoursBefore(before: Date): Promise<number> {
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
      return this.sqlite.query("DELETE FROM link_visit_buckets WHERE hours = 1 AND starts_at < ?").run(cutoff).changes;
    })();
  }
}
