import type { Database } from "bun:sqlite";
import { otherValue } from "../../visits/named-values.ts";
import { orphanCountsByDay, withinNamedReferrers } from "../../visits/orphan-referrers.ts";
import type { OrphanCount, OrphanDay, OrphanKindCount, OrphanValueCount, OrphanVisitReads, OrphanVisitStore } from "../../visits/orphan-visit-store.ts";

/** The same as PostgresOrphanVisitStore on bun:sqlite, `day` as YYYY-MM-DD. No lock: SQLite has one writer, and a write is one transaction. */
export class SqliteOrphanVisitStore implements OrphanVisitStore {
  constructor(private readonly sqlite: Database) {}

  async snapshot<T>(read: (reads: OrphanVisitReads) => Promise<T>): Promise<T> {
    // Each read is one synchronous statement, and a report starts them in one turn of the event loop (as SqliteVisitStore's).
    return read(this);
  }

  async add(counts: readonly OrphanCount[]): Promise<void> {
    if (counts.length === 0) return;
    const namedOn = this.sqlite.query<{ referrer: string }, [string, string]>("SELECT DISTINCT referrer FROM orphan_visits WHERE day = ? AND referrer <> ?");
    const upsert = this.sqlite.query<never, [string, string, string, number, number]>(
      `INSERT INTO orphan_visits (day, kind, referrer, humans, bots) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (day, kind, referrer) DO UPDATE SET humans = humans + excluded.humans, bots = bots + excluded.bots`,
    );
    this.sqlite.transaction(() => {
      for (const [day, ofDay] of orphanCountsByDay(counts)) {
        const named = new Set(namedOn.all(day, otherValue).map((row) => row.referrer));
        for (const count of withinNamedReferrers(ofDay, { count: named.size, has: (value) => named.has(value) })) {
          upsert.run(day, count.kind, count.referrer, count.humans, count.bots);
        }
      }
    })();
  }

  async days(fromDay: string, toDay: string): Promise<OrphanDay[]> {
    return this.sqlite
      .query<OrphanDay, [string, string]>(
        "SELECT day, sum(humans) AS humans, sum(bots) AS bots FROM orphan_visits WHERE day BETWEEN ? AND ? GROUP BY day ORDER BY day",
      )
      .all(fromDay, toDay);
  }

  async breakdowns(fromDay: string, toDay: string, limit: number): Promise<{ kinds: OrphanKindCount[]; referrers: OrphanValueCount[] }> {
    const kinds = this.sqlite
      .query<OrphanKindCount, [string, string]>(
        "SELECT kind AS value, sum(humans + bots) AS visits FROM orphan_visits WHERE day BETWEEN ? AND ? GROUP BY kind ORDER BY visits DESC, kind",
      )
      .all(fromDay, toDay);
    const referrers = this.sqlite
      .query<OrphanValueCount, [string, string, string, number]>(
        `SELECT referrer AS value, sum(humans + bots) AS visits FROM orphan_visits
         WHERE day BETWEEN ? AND ? AND referrer <> ? GROUP BY referrer ORDER BY visits DESC, referrer LIMIT ?`,
      )
      .all(fromDay, toDay, otherValue, limit);
    return { kinds, referrers };
  }
}
