import type { Sql, TransactionSql } from "postgres";
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

/**
 * Taken, with the day's number as the second key, by a write to one UTC day
 * of orphan_visits: two replicas writing the same day at once take turns,
 * so each sees the names the other gave and the day never names more than
 * the bound. Any fixed number works (two-key advisory locks are apart from
 * the one-key ones of the migrations and the visit upkeep).
 */
export const orphanVisitsLockId = 7_202_613;

export class PostgresOrphanVisitStore implements OrphanVisitStore {
  constructor(
    private readonly sql: Sql,
    /** Where the reads go: the pool, or a snapshot's transaction. */
    private readonly reads: Sql | TransactionSql = sql,
  ) {}

  async snapshot<T>(read: (reads: OrphanVisitReads) => Promise<T>): Promise<T> {
    return (await this.sql.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", (tx) => read(new PostgresOrphanVisitStore(this.sql, tx)))) as T;
  }

  async add(counts: readonly OrphanCount[]): Promise<void> {
    if (counts.length === 0) return;
    await this.sql.begin(async (tx) => {
      for (const [day, ofDay] of orphanCountsByDay(counts)) {
        await tx`SELECT pg_advisory_xact_lock(${orphanVisitsLockId}::int, ${day}::date - DATE '1970-01-01')`;
        // At most namedValuesPerDay rows: the bound itself.
        const rows = await tx<{ referrer: string }[]>`
          SELECT DISTINCT referrer FROM orphan_visits WHERE day = ${day}::date AND referrer <> ${otherValue}`;
        const named = new Set(rows.map((row) => row.referrer));
        const bounded = withinNamedReferrers(ofDay, { count: named.size, has: (value) => named.has(value) });
        await tx`
          INSERT INTO orphan_visits (day, domain_id, kind, referrer, humans, bots)
          SELECT ${day}::date, c.domain_id, c.kind, c.referrer, c.humans, c.bots FROM unnest(
            ${bounded.map((c) => c.domainId)}::int[], ${bounded.map((c) => c.kind)}::text[], ${bounded.map((c) => c.referrer)}::text[],
            ${bounded.map((c) => c.humans)}::bigint[], ${bounded.map((c) => c.bots)}::bigint[]
          ) AS c(domain_id, kind, referrer, humans, bots)
          ON CONFLICT (day, domain_id, kind, referrer) DO UPDATE
            SET humans = orphan_visits.humans + excluded.humans, bots = orphan_visits.bots + excluded.bots`;
      }
    });
  }

  async days(scope: OrphanScope): Promise<OrphanDay[]> {
    return this.reads<OrphanDay[]>`
      SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(humans)::float8 AS humans, sum(bots)::float8 AS bots FROM orphan_visits
      WHERE ${this.within(scope)}
      GROUP BY day ORDER BY day`;
  }

  async breakdowns(scope: OrphanScope, limit: number): Promise<{ kinds: OrphanKindCount[]; referrers: OrphanValueCount[] }> {
    const [kinds, referrers] = await Promise.all([
      this.reads<OrphanKindCount[]>`
        SELECT kind AS value, sum(humans + bots)::float8 AS visits FROM orphan_visits
        WHERE ${this.within(scope)}
        GROUP BY kind ORDER BY visits DESC, kind COLLATE "C"`,
      this.reads<OrphanValueCount[]>`
        SELECT referrer AS value, sum(humans + bots)::float8 AS visits FROM orphan_visits
        WHERE ${this.within(scope)} AND referrer <> ${otherValue}
        GROUP BY referrer ORDER BY visits DESC, referrer COLLATE "C" LIMIT ${limit}`,
    ]);
    return { kinds: [...kinds], referrers: [...referrers] };
  }

  /** The rows of a scope: its days, and its domain when it names one. */
  private within({ fromDay, toDay, domainId }: OrphanScope) {
    const days = this.sql`day BETWEEN ${fromDay}::date AND ${toDay}::date`;
    return domainId === undefined ? days : this.sql`${days} AND domain_id = ${domainId}`;
  }
}
