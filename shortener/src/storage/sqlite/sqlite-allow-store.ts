import { and, asc, eq } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { AdminVerdict, AllowEntry, AllowStore, NewAllowEntry } from "../../threats/allow-entry.ts";
import { allowList } from "./schema.ts";

export class SqliteAllowStore implements AllowStore {
  constructor(private readonly db: BunSQLiteDatabase) {}

  async insert(entry: NewAllowEntry): Promise<AllowEntry | null> {
    return this.db.insert(allowList).values(entry).onConflictDoNothing().returning().get() ?? null;
  }

  async list(verdict: AdminVerdict): Promise<AllowEntry[]> {
    return this.db.select().from(allowList).where(eq(allowList.verdict, verdict)).orderBy(asc(allowList.id)).all();
  }

  async delete(verdict: AdminVerdict, id: number): Promise<boolean> {
    return (
      this.db
        .delete(allowList)
        .where(and(eq(allowList.verdict, verdict), eq(allowList.id, id)))
        .returning({ id: allowList.id })
        .all().length > 0
    );
  }
}
