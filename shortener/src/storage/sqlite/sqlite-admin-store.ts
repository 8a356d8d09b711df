import { eq } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { Admin, AdminStore } from "../../admins/admin-store.ts";
import { admins } from "./schema.ts";

export class SqliteAdminStore implements AdminStore {
  constructor(private readonly db: BunSQLiteDatabase) {}

  async insert(admin: Admin): Promise<boolean> {
    return this.db.insert(admins).values(admin).onConflictDoNothing().returning().all().length > 0;
  }

  async find(username: string): Promise<Admin | null> {
    return this.db.select().from(admins).where(eq(admins.username, username)).get() ?? null;
  }
}
