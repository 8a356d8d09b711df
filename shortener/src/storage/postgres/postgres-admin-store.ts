import { eq } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { Admin, AdminStore } from "../../admins/admin-store.ts";
import { admins } from "./schema.ts";

export class PostgresAdminStore implements AdminStore {
  constructor(private readonly db: PostgresJsDatabase) {}

  async insert(admin: Admin): Promise<boolean> {
    const rows = await this.db.insert(admins).values(admin).onConflictDoNothing().returning({ username: admins.username });
    return rows.length > 0;
  }

  async find(username: string): Promise<Admin | null> {
    const rows = await this.db.select().from(admins).where(eq(admins.username, username));
    return rows[0] ?? null;
  }
}
