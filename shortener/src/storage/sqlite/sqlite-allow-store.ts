import { asc, eq } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { AllowEntry, AllowStore, NewAllowEntry } from "../../threats/allow-entry.ts";
import { allowList } from "./schema.ts";

export class SqliteAllowStore implements AllowStore {
  constructor(private readonly db: BunSQLiteDatabase) {}

  async insert(entry: NewAllowEntry): Promise<AllowEntry | null> {
    return this.db.insert(allowList).values(entry).onConflictDoNothing().returning().get() ?? null;
  }

  async list(): Promise<AllowEntry[]> {
    return this.db.select().from(allowList).orderBy(asc(allowList.id)).all();
  }

  async delete(id: number): Promise<boolean> {
    return this.db.delete(allowList).where(eq(allowList.id, id)).returning({ id: allowList.id }).all().length > 0;
  }
}
