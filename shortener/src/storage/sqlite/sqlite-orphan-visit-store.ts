import type { Database } from "bun:sqlite";
import { otherValue } from "../../visits/named-values.ts";
import { orphanCountsByDay, withinNamedReferrers } from "../../visits/orphan-referrers.ts";
import type {
  OrphanCount,
  OrphanDay,
  OrphanKindCount,
  OrphanScope,
  OrphanValueCount,
  OrphanVisitReads,
  OrphanVisitStore,
} from "../../visits/orphan-visit-store.ts";

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
    const upsert = this.sqlite.query<never, [string, number, string, string, number, number]>(
      `INSERT INTO orphan_visits (day, domain_id, kind, referrer, humans, bots) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (day, domain_id, kind, referrer) DO UPDATE SET humans = humans + excluded.humans, bots = bots + excluded.bots`,
    );
    this.sqlite.transaction(() => {
      for (const [day, ofDay] of orphanCountsByDay(counts)) {
        const named = new Set(namedOn.all(day, otherValue).map((row) => row.referrer));
        for (const count of withinNamedReferrers(ofDay, { count: named.size, has: (value) => named.has(value) })) {
          upsert.run(day, count.domainId, count.kind, count.referrer, count.humans, count.bots);
        }
      }
    })();
  }

  async days(scope: OrphanScope): Promise<OrphanDay[]> {
    return this.sqlite
      .query<OrphanDay, ScopeParams>(`SELECT day, sum(humans) AS humans, sum(bots) AS bots FROM orphan_visits WHERE ${within} GROUP BY day ORDER BY day`)
      .all(...paramsOf(scope));
  }

  async breakdowns(scope: OrphanScope, limit: number): Promise<{ kinds: OrphanKindCount[]; referrers: OrphanValueCount[] }> {
    const kinds = this.sqlite
      .query<OrphanKindCount, ScopeParams>(
        `SELECT kind AS value, sum(humans + bots) AS visits FROM orphan_visits WHERE ${within} GROUP BY kind ORDER BY visits DESC, kind`,
      )
      .all(...paramsOf(scope));
    const referrers = this.sqlite
      .query<OrphanValueCount, [...ScopeParams, string, number]>(
        `SELECT referrer AS value, sum(humans + bots) AS visits FROM orphan_visits
         WHERE ${within} AND referrer <> ?4 GROUP BY referrer ORDER BY visits DESC, referrer LIMIT ?5`,
      )
      .all(...paramsOf(scope), otherValue, limit);
    return { kinds, referrers };
  }
}

/** The rows of a scope: its days, and its domain when it names one (a null domain, all of them). */
const within = "day BETWEEN ?1 AND ?2 AND (?3 IS NULL OR domain_id = ?3)";
type ScopeParams = [string, string, number | null];
const paramsOf = ({ fromDay, toDay, domainId }: OrphanScope): ScopeParams => [fromDay, toDay, domainId ?? null];
