import { ServiceUnavailable } from "@linkgeo/shared";

// Errors that mean "the database cannot be used right now", from
// postgres.js, the OS and Postgres itself (57P0x: shutting down, 53300: too
// many connections, 57014: our statement_timeout, 53100: disk full, 25006:
// read-only, 58030: I/O error; and the conflicts a retry resolves, 40P01: a
// deadlock Postgres broke by failing this transaction, 40001: a
// serialization failure, 55P03: a lock not granted within lock_timeout) and
// our own deadline (DatabaseTimeout).
const unavailableCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "57014",
  "53100",
  "25006",
  "58030",
  "40P01",
  "40001",
  "55P03",
  "DATABASE_TIMEOUT",
]);

// SQLite's primary result codes, each with its extended ones (SQLITE_IOERR_WRITE,
// SQLITE_BUSY_SNAPSHOT, SQLITE_READONLY_DBMOVED…): a lock held too long, a
// full disk, a read-only file, an I/O error, a file that cannot be opened.
const sqliteUnavailable = /^SQLITE_(BUSY|LOCKED|FULL|READONLY|IOERR|CANTOPEN)(_|$)/;

/** A 503 for errors that mean the database cannot be used right now; undefined for anything else. */
export function storageUnavailable(error: unknown): ServiceUnavailable | undefined {
  // Drizzle wraps driver errors; walk the cause chain.
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (unavailableCodes.has(code) || sqliteUnavailable.test(code))) return ServiceUnavailable.dependency("the database", error);
  }
  return undefined;
}
