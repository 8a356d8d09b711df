/** A signed-in admin of the web app, as the store keeps it. */
export interface AdminSession {
  /** SHA-256 (hex) of the session id; the id itself lives only in the admin's cookie. */
  idHash: string;
  username: string;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * Where admin sessions live. One implementation per engine (Postgres,
 * SQLite); both pass the same contract suite.
 */
export interface AdminSessionStore {
  /** Stores the session; false when its admin does not exist (nothing stored). */
  insert(session: AdminSession): Promise<boolean>;
  /** The sessions among `idHashes` that expire after `now` and whose admin still exists, in one query. */
  findLive(idHashes: readonly string[], now: Date): Promise<AdminSession[]>;
  /** True when a session was deleted. */
  delete(idHash: string): Promise<boolean>;
  /** Deletes every session that expired at or before `now`; how many went. */
  deleteExpired(now: Date): Promise<number>;
}
