import type { NewPerson, Person } from "./person.ts";

/** Where people are kept. One implementation per engine; both pass the same contract suite. */
export interface PeopleStore {
  /** Inserts the person, or returns null when the username is taken (nothing stored). Ids are never given again. */
  insert(person: NewPerson): Promise<Person | null>;
  /** The person of `username` (lower case), or null. */
  findByUsername(username: string): Promise<Person | null>;
}
