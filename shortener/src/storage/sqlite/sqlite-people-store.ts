import { eq } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { PeopleStore } from "../../people/people-store.ts";
import type { NewPerson, Person } from "../../people/person.ts";
import { people } from "./schema.ts";

export class SqlitePeopleStore implements PeopleStore {
  constructor(private readonly db: BunSQLiteDatabase) {}

  async insert(person: NewPerson): Promise<Person | null> {
    return this.db.insert(people).values(person).onConflictDoNothing().returning().get() ?? null;
  }

  async findByUsername(username: string): Promise<Person | null> {
    return this.db.select().from(people).where(eq(people.username, username)).get() ?? null;
  }
}
