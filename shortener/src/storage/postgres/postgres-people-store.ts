import { eq } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { PeopleStore } from "../../people/people-store.ts";
import type { NewPerson, Person } from "../../people/person.ts";
import { people } from "./schema.ts";

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
}
