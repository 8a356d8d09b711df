export interface Admin {
  username: string;
  /** A `Bun.password` hash (argon2id). */
  passwordHash: string;
  createdAt: Date;
}

export interface AdminStore {
  /** Inserts the admin, or returns false when the username is taken. */
  insert(admin: Admin): Promise<boolean>;
  find(username: string): Promise<Admin | null>;
}
