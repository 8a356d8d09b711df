import type { NewPerson, Person, PersonSession } from "./person.ts";

/** What a person's deletion did: deleted (their username), refused while they are the only owner of workspaces (their ids), or no such person. */
export type PersonDeletion = { deleted: string } | { soleOwnerOf: number[] } | "unknown";

/** Where people and their sign-ins are kept. One implementation per engine; both pass the same contract suite. */
export interface PeopleStore {
  /** Inserts the person, or returns null when the username is taken (nothing stored). Ids are never given again. */
  insert(person: NewPerson): Promise<Person | null>;
  /** The person of `username` (lower case), or null. */
  findByUsername(username: string): Promise<Person | null>;
  /** Stores the session; false when its person does not exist (nothing stored). */
  insertSession(session: PersonSession): Promise<boolean>;
  /** The session of `idHash` when it expires after `now` and its person still exists, with the person's username; else null. */
  findLiveSession(idHash: string, now: Date): Promise<(PersonSession & { username: string }) | null>;
  /** True when a session was deleted. */
  deleteSession(idHash: string): Promise<boolean>;
  /** Deletes every session that expired at or before `now`; how many went. */
  deleteExpiredSessions(now: Date): Promise<number>;
  /**
   * Deletes the person with their sessions, memberships and the keys they
   * made, in one transaction, unless they are the only owner of a
   * workspace (which would be left with no one to run it).
   */
  delete(personId: number): Promise<PersonDeletion>;
}
