import { and, asc, eq } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { AdminVerdict, AllowEntry, AllowStore, NewAllowEntry } from "../../threats/allow-entry.ts";
import { allowList } from "./schema.ts";

export class PostgresAllowStore implements AllowStore {
  constructor(private readonly db: PostgresJsDatabase) {}

  async insert(entry: NewAllowEntry): Promise<AllowEntry | null> {
    const [row] = await this.db.insert(allowList).values(entry).onConflictDoNothing().returning();
    return row ?? null;
  }

  list(verdict: AdminVerdict): Promise<AllowEntry[]> {
    return this.db.select().from(allowList).where(eq(allowList.verdict, verdict)).orderBy(asc(allowList.id));
  }

  async delete(verdict: AdminVerdict, id: number): Promise<boolean> {
    return (
      (
        await this.db
          .delete(allowList)
          .where(and(eq(allowList.verdict, verdict), eq(allowList.id, id)))
          .returning({ id: allowList.id })
      ).length > 0
    );
  }
}
