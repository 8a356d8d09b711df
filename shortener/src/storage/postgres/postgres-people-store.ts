import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { PeopleStore, PersonDeletion } from "../../people/people-store.ts";
import type { NewPerson, Person, PersonSession } from "../../people/person.ts";
import { people, personSessions } from "./schema.ts";

export class PostgresPeopleStore implements PeopleStore {
  constructor(private readonly db: PostgresJsDatabase) {}

  async insert(person: NewPerson): Promise<Person | null> {
    const rows = await this.db.insert(people).values(person).onConflictDoNothing().returning();
    return rows[0] ?? null;
  }

  async findByUsername(username: string): Promise<Person | null> {
    const rows = await this.db.select().from(people).where(eq(people.username, username));
    return rows[0] ?? null;
  }

  async insertSession(session: PersonSession): Promise<boolean> {
    // Through the person's row, so a session is never stored for a person that is gone (a plain insert would break the foreign key: a 500).
    const rows = await this.db.execute(sql`
      INSERT INTO person_sessions (id_hash, person_id, created_at, expires_at)
      SELECT ${session.idHash}, id, ${session.createdAt.toISOString()}::timestamptz, ${session.expiresAt.toISOString()}::timestamptz
      FROM people WHERE id = ${session.personId}
      RETURNING id_hash`);
    return rows.length > 0;
  }

  async findLiveSession(idHash: string, now: Date): Promise<(PersonSession & { username: string }) | null> {
    const rows = await this.db
      .select({
        idHash: personSessions.idHash,
        personId: personSessions.personId,
        createdAt: personSessions.createdAt,
        expiresAt: personSessions.expiresAt,
        username: people.username,
      })
      .from(personSessions)
      .innerJoin(people, eq(people.id, personSessions.personId))
      .where(and(eq(personSessions.idHash, idHash), gt(personSessions.expiresAt, now)));
    return rows[0] ?? null;
  }

  async deleteSession(idHash: string): Promise<boolean> {
    const rows = await this.db.delete(personSessions).where(eq(personSessions.idHash, idHash)).returning({ idHash: personSessions.idHash });
    return rows.length > 0;
  }

  async deleteExpiredSessions(now: Date): Promise<number> {
    const rows = await this.db.delete(personSessions).where(lte(personSessions.expiresAt, now)).returning({ idHash: personSessions.idHash });
    return rows.length;
  }

  async delete(personId: number): Promise<PersonDeletion> {
    return this.db.transaction(async (tx) => {
      // The person's row first: a membership being written for them (a new workspace, an invite accepted) holds a
      // key-share lock on it, so this waits for it and then counts it. Then every workspace they are in, locked as a
      // change of members locks it: an owner added, promoted or removed meanwhile is counted too.
      await tx.execute(sql`SELECT id FROM people WHERE id = ${personId} FOR UPDATE`);
      await tx.execute(sql`
        SELECT w.id FROM workspaces w JOIN workspace_members m ON m.workspace_id = w.id
        WHERE m.person_id = ${personId} ORDER BY w.id FOR UPDATE OF w`);
      const sole = await tx.execute<{ id: number }>(sql`
        SELECT m.workspace_id AS id FROM workspace_members m
        WHERE m.person_id = ${personId} AND m.role = 'owner'
          AND NOT EXISTS (SELECT 1 FROM workspace_members o WHERE o.workspace_id = m.workspace_id AND o.role = 'owner' AND o.person_id <> ${personId})
        ORDER BY m.workspace_id`);
      if (sole.length > 0) return { soleOwnerOf: sole.map((row) => Number(row.id)) };
      // Sessions, memberships and the keys they made go with the row (ON DELETE CASCADE).
      const [deleted] = await tx.delete(people).where(eq(people.id, personId)).returning({ username: people.username });
      return deleted ? { deleted: deleted.username } : "unknown";
    });
  }
}
