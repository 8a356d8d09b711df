import type { Database } from "bun:sqlite";
import { and, eq, gt, lte } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { PeopleStore, PersonDeletion } from "../../people/people-store.ts";
import type { NewPerson, Person, PersonSession } from "../../people/person.ts";
import { people, personSessions } from "./schema.ts";

export class SqlitePeopleStore implements PeopleStore {
  constructor(private readonly db: BunSQLiteDatabase & { $client: Database }) {}

  async insert(person: NewPerson): Promise<Person | null> {
    return this.db.insert(people).values(person).onConflictDoNothing().returning().get() ?? null;
  }

  async findByUsername(username: string): Promise<Person | null> {
    return this.db.select().from(people).where(eq(people.username, username)).get() ?? null;
  }

  async insertSession(session: PersonSession): Promise<boolean> {
    // Through the person's row, so a session is never stored for a person that is gone (a plain insert would break the foreign key: a 500).
    const inserted = this.db.$client
      .query<unknown, [string, number, number, number]>(
        `INSERT INTO person_sessions (id_hash, person_id, created_at, expires_at)
         SELECT ?, id, ?, ? FROM people WHERE id = ?`,
      )
      .run(session.idHash, session.createdAt.getTime(), session.expiresAt.getTime(), session.personId);
    return inserted.changes > 0;
  }

  async findLiveSession(idHash: string, now: Date): Promise<(PersonSession & { username: string }) | null> {
    return (
      this.db
        .select({
          idHash: personSessions.idHash,
          personId: personSessions.personId,
          createdAt: personSessions.createdAt,
          expiresAt: personSessions.expiresAt,
          username: people.username,
        })
        .from(personSessions)
        .innerJoin(people, eq(people.id, personSessions.personId))
        .where(and(eq(personSessions.idHash, idHash), gt(personSessions.expiresAt, now)))
        .get() ?? null
    );
  }

  async deleteSession(idHash: string): Promise<boolean> {
    return this.db.delete(personSessions).where(eq(personSessions.idHash, idHash)).returning({ idHash: personSessions.idHash }).all().length > 0;
  }

  async deleteExpiredSessions(now: Date): Promise<number> {
    return this.db.delete(personSessions).where(lte(personSessions.expiresAt, now)).returning({ idHash: personSessions.idHash }).all().length;
  }

  async delete(personId: number): Promise<PersonDeletion> {
    const sqlite = this.db.$client;
    // One writer at a time: the owners are counted and the person deleted together, as a change of members does.
    return sqlite.transaction((): PersonDeletion => {
      const sole = sqlite
        .query<{ id: number }, [number, number]>(
          `SELECT m.workspace_id AS id FROM workspace_members m
           WHERE m.person_id = ?1 AND m.role = 'owner'
             AND NOT EXISTS (SELECT 1 FROM workspace_members o WHERE o.workspace_id = m.workspace_id AND o.role = 'owner' AND o.person_id <> ?2)
           ORDER BY m.workspace_id`,
        )
        .all(personId, personId);
      if (sole.length > 0) return { soleOwnerOf: sole.map((row) => row.id) };
      // Sessions, memberships and the keys they made go with the row (ON DELETE CASCADE).
      const deleted = sqlite.query<{ username: string }, [number]>("DELETE FROM people WHERE id = ? RETURNING username").get(personId);
      return deleted ? { deleted: deleted.username } : "unknown";
    })();
  }
}
