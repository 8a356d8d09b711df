/**
 * A person: an account that signs in and works in workspaces (docs/people.md),
 * apart from the instance's admins, who operate above every workspace.
 */
export interface Person {
  id: number;
  /** Kept in lower case: `Alice` and `alice` are one person, so no one can pass for another by case. */
  username: string;
  /** A `Bun.password` hash (argon2id), as an admin's. */
  passwordHash: string;
  createdAt: Date;
}

export type NewPerson = Omit<Person, "id">;

/** A person signed in, as the store keeps it: the token itself lives only with its holder. */
export interface PersonSession {
  /** SHA-256 (hex) of the token. */
  idHash: string;
  personId: number;
  createdAt: Date;
  expiresAt: Date;
}
