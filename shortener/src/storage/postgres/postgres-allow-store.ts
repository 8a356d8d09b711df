import { asc, eq } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { AllowEntry, AllowStore, NewAllowEntry } from "../../threats/allow-entry.ts";
import { allowList } from "./schema.ts";

export class PostgresAllowStore implements AllowStore {
  constructor(private readonly db: PostgresJsDatabase) {}

  async insert(entry: NewAllowEntry): Promise<AllowEntry | null> {
    const [row] = await this.db.insert(allowList).values(entry).onConflictDoNothing().returning();
    return row ?? null;
  }

  list(): Promise<AllowEntry[]> {
    return this.db.select().from(allowList).orderBy(asc(allowList.id));
  }

  async delete(id: number): Promise<boolean> {
    return (await this.db.delete(allowList).where(eq(allowList.id, id)).returning({ id: allowList.id })).length > 0;
  }
}
