import { and, eq, isNotNull, isNull, lt, lte, or } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { RecheckStore } from "../../threats/recheck-store.ts";
import { threatRecheck } from "./schema.ts";

/** The row's one id. */
const row = 1;

export class PostgresRecheckStore implements RecheckStore {
  constructor(private readonly db: PostgresJsDatabase) {}

  async claim(holder: string, now: Date, leaseUntil: Date): Promise<{ cursor: string | null } | undefined> {
    // The first claim ever finds no row: one due at once.
    await this.db
      .insert(threatRecheck)
      .values({ id: row, nextRunAt: new Date(0) })
      .onConflictDoNothing();
    const [taken] = await this.db
      .update(threatRecheck)
      .set({ holder, leaseUntil })
      .where(
        and(
          eq(threatRecheck.id, row),
          or(isNull(threatRecheck.leaseUntil), lt(threatRecheck.leaseUntil, now), eq(threatRecheck.holder, holder)),
          or(isNotNull(threatRecheck.cursor), lte(threatRecheck.nextRunAt, now)),
        ),
      )
      .returning({ cursor: threatRecheck.cursor });
    return taken;
  }

  async advance(holder: string, cursor: string, leaseUntil: Date): Promise<boolean> {
    const kept = await this.db
      .update(threatRecheck)
      .set({ cursor, leaseUntil })
      .where(and(eq(threatRecheck.id, row), eq(threatRecheck.holder, holder)))
      .returning({ id: threatRecheck.id });
    return kept.length > 0;
  }

  async finish(holder: string, nextRunAt: Date): Promise<void> {
    await this.db
      .update(threatRecheck)
      .set({ cursor: null, nextRunAt, holder: null, leaseUntil: null })
      .where(and(eq(threatRecheck.id, row), eq(threatRecheck.holder, holder)));
  }
}
