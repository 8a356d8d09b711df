import { ServiceUnavailable } from "@linkgeo/shared";

// Errors that mean the server is out of reach, from postgres.js, the OS and
// Postgres itself (57P0x: shutting down or starting; 08xxx: connection
// exceptions).
const lostConnectionCodes = [
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
];

// Errors that mean "the database cannot be used right now": out of reach,
// and from Postgres 53300: too many connections, 57014: our
// statement_timeout, 53100: disk full, 25006: read-only, 58030: I/O error;
// and the conflicts a retry resolves, 40P01: a deadlock Postgres broke by
// failing this transaction, 40001: a serialization failure (or, on a
// replica, a conflict with its recovery), 55P03: a lock not granted within
// lock_timeout; and our own deadline (DatabaseTimeout).
const unavailableCodes = new Set([...lostConnectionCodes, "53300", "57014", "53100", "25006", "58030", "40P01", "40001", "55P03", "DATABASE_TIMEOUT"]);

// SQLite's primary result codes, each with its extended ones (SQLITE_IOERR_WRITE,
// SQLITE_BUSY_SNAPSHOT, SQLITE_READONLY_DBMOVED…): a lock held too long, a
// full disk, a read-only file, an I/O error, a file that cannot be opened.
const sqliteUnavailable = /^SQLITE_(BUSY|LOCKED|FULL|READONLY|IOERR|CANTOPEN)(_|$)/;

/** A 503 for errors that mean the database cannot be used right now; undefined for anything else. */
export function storageUnavailable(error: unknown): ServiceUnavailable | undefined {
  return errorCodes(error).some((code) => unavailableCodes.has(code) || sqliteUnavailable.test(code))
    ? ServiceUnavailable.dependency("the database", error)
    : undefined;
}

/** Whether `error` says the server is out of reach (a replica down), not that a statement failed on it. */
export function lostConnection(error: unknown): boolean {
  return errorCodes(error).some((code) => lostConnectionCodes.includes(code) || code.startsWith("08"));
}

/** Whether `error`, or an error it was caused by (Drizzle wraps the driver's), carries `code`: a Postgres SQLSTATE or a SQLite result code. */
export function hasErrorCode(error: unknown, code: string): boolean {
  return errorCodes(error).includes(code);
}

/** Whether `error` is a foreign key's refusal, on either engine: a row refers to one that is not there, or one still referred to is deleted. */
export function isForeignKeyViolation(error: unknown): boolean {
  return errorCodes(error).some((code) => code === "23503" || code === "SQLITE_CONSTRAINT_FOREIGNKEY");
}

/** The codes along the error's cause chain (Drizzle wraps driver errors). */
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
  }
  return codes;
}
