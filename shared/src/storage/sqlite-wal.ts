import type { Database } from "bun:sqlite";

/**
 * The services' SQLite files (the shortener's database, the geocoder's L2
 * and jobs) as several processes share them: a writer waits up to
 * `lockWaitMs` for another's lock instead of failing at once, reads go on
 * while a write commits (WAL), and a power cut may take back the last
 * commits, never half of one (synchronous=NORMAL). The wait is set first:
 * turning a fresh file to WAL takes its lock, which a replica starting
 * beside this one may hold (a CI run's geocoder never listened for want
 * of it).
 */
export function useWal(db: Database, lockWaitMs = 5_000): void {
  db.exec(`PRAGMA busy_timeout = ${lockWaitMs}`);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
}
