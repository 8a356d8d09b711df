import type { Database } from "bun:sqlite";
import { and, eq, gt, lte } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { PeopleStore } from "../../people/people-store.ts";
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
}
