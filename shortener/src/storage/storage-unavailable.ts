import { ServiceUnavailable } from "@linkgeo/shared";

// Errors that mean "the database cannot be reached right now", from
// postgres.js, the OS and Postgres itself (57P0x: shutting down, 53300: too
// many connections, 57014: our statement_timeout), SQLite's lock timeout,
// and our own deadline (DatabaseTimeout).
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
  "SQLITE_BUSY",
  "DATABASE_TIMEOUT",
]);

/** A 503 for errors that mean the database is unreachable; undefined for anything else. */
export function storageUnavailable(error: unknown): ServiceUnavailable | undefined {
  // Drizzle wraps driver errors; walk the cause chain.
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && unavailableCodes.has(code)) return new ServiceUnavailable("the database");
  }
  return undefined;
}
