import { and, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { AdminSession, AdminSessionStore } from "../../auth/admin-session-store.ts";
import { admins, adminSessions } from "./schema.ts";

export class PostgresAdminSessionStore implements AdminSessionStore {
  constructor(private readonly db: PostgresJsDatabase) {}

  async insert(session: AdminSession): Promise<boolean> {
    // Through the admin's row, so a session is never stored for an admin that
    // is gone (a plain insert would break the foreign key: a 500).
    const rows = await this.db.execute(sql`
      INSERT INTO admin_sessions (id_hash, username, created_at, expires_at)
      SELECT ${session.idHash}, username, ${session.createdAt.toISOString()}::timestamptz, ${session.expiresAt.toISOString()}::timestamptz
      FROM admins WHERE username = ${session.username}
      RETURNING id_hash`);
    return rows.length > 0;
  }

  async findLive(idHashes: readonly string[], now: Date): Promise<AdminSession[]> {
    if (idHashes.length === 0) return [];
    return this.db
      .select({ idHash: adminSessions.idHash, username: adminSessions.username, createdAt: adminSessions.createdAt, expiresAt: adminSessions.expiresAt })
      .from(adminSessions)
      .innerJoin(admins, eq(admins.username, adminSessions.username))
      .where(and(inArray(adminSessions.idHash, [...idHashes]), gt(adminSessions.expiresAt, now)));
  }

  async delete(idHash: string): Promise<boolean> {
    const rows = await this.db.delete(adminSessions).where(eq(adminSessions.idHash, idHash)).returning({ idHash: adminSessions.idHash });
    return rows.length > 0;
  }

  async deleteExpired(now: Date): Promise<number> {
    const rows = await this.db.delete(adminSessions).where(lte(adminSessions.expiresAt, now)).returning({ idHash: adminSessions.idHash });
    return rows.length;
  }
}
