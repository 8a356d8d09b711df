import { and, eq, gt, inArray, lte } from "drizzle-orm";
import type { Database } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { AdminSession, AdminSessionStore } from "../../auth/admin-session-store.ts";
import { admins, adminSessions } from "./schema.ts";

export class SqliteAdminSessionStore implements AdminSessionStore {
  constructor(private readonly db: BunSQLiteDatabase & { $client: Database }) {}

  async insert(session: AdminSession): Promise<boolean> {
    // Through the admin's row, so a session is never stored for an admin that
    // is gone (a plain insert would break the foreign key: a 500).
    const inserted = this.db.$client
      .query<unknown, [string, number, number, string]>(
        `INSERT INTO admin_sessions (id_hash, username, created_at, expires_at)
         SELECT ?, username, ?, ? FROM admins WHERE username = ?`,
      )
      .run(session.idHash, session.createdAt.getTime(), session.expiresAt.getTime(), session.username);
    return inserted.changes > 0;
  }

  async findLive(idHashes: readonly string[], now: Date): Promise<AdminSession[]> {
    if (idHashes.length === 0) return [];
    return this.db
      .select({ idHash: adminSessions.idHash, username: adminSessions.username, createdAt: adminSessions.createdAt, expiresAt: adminSessions.expiresAt })
      .from(adminSessions)
      .innerJoin(admins, eq(admins.username, adminSessions.username))
      .where(and(inArray(adminSessions.idHash, [...idHashes]), gt(adminSessions.expiresAt, now)))
      .all();
  }

  async delete(idHash: string): Promise<boolean> {
    return this.db.delete(adminSessions).where(eq(adminSessions.idHash, idHash)).returning({ idHash: adminSessions.idHash }).all().length > 0;
  }

  async deleteExpired(now: Date): Promise<number> {
    return this.db.delete(adminSessions).where(lte(adminSessions.expiresAt, now)).returning({ idHash: adminSessions.idHash }).all().length;
  }
}
