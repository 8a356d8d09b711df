import { redactedUrl } from "@linkgeo/shared";
import { join, resolve } from "node:path";

/** Which engine and where, from `DATABASE_URL`. */
export type DatabaseTarget = { engine: "postgres"; url: string } | { engine: "sqlite"; path: string };

/**
 * The shortener's folder. A SQLite path is anchored here, not to the working
 * directory: `bun run start` runs the service in this folder while
 * `bun run createsuperuser` and `bun run import` may run at the repository
 * root, and all of them must open the same file.
 */
const shortenerFolder = resolve(import.meta.dir, "../..");

export const defaultSqlitePath = join(shortenerFolder, "data", "shortener.db");

/**
 * `postgres://user:pass@host:port/db` (or `postgresql://`) selects Postgres.
 * `sqlite:///relative/file.db`, `sqlite:////absolute/file.db` and
 * `sqlite:///:memory:` select bun:sqlite (the SQLAlchemy convention); a
 * relative path is relative to the shortener's folder, whatever the working directory.
 */
export function parseDatabaseUrl(raw: string): DatabaseTarget {
  if (/^postgres(ql)?:\/\//.test(raw)) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new Error("is not a valid postgres:// URL");
    }
    if (!url.hostname || url.pathname.length < 2) throw new Error("must name a host and a database (postgres://user:pass@host:port/db)");
    return { engine: "postgres", url: raw };
  }
  if (raw.startsWith("sqlite:///")) {
    const path = raw.slice("sqlite:///".length);
    if (path === "") throw new Error("must name a file (sqlite:///data/shortener.db)");
    return { engine: "sqlite", path: path === ":memory:" ? path : resolve(shortenerFolder, path) };
  }
  throw new Error("must be postgres://user:pass@host:port/db or sqlite:///path/file.db");
}

/** DATABASE_READ_URL: a comma list of `postgres://` URLs of one host each, the primary's streaming replicas. */
export function parseReadUrls(raw: string): string[] {
  return raw.split(",").map((entry, i) => {
    const target = (() => {
      try {
        return parseDatabaseUrl(entry.trim());
      } catch {
        return undefined;
      }
    })();
    // The entry is not echoed: it may hold a password.
    if (target?.engine !== "postgres") throw new Error(`must be a comma list of postgres://user:pass@host:port/db (entry ${i + 1} is not)`);
    return target.url;
  });
}

/**
 * Where a target points, as a log or a command prints it when the database
 * cannot be opened: the variable to fix and its address, a Postgres URL's
 * password redacted (`DATABASE_URL=postgres://app:***@db:5432/links`), or
 * the SQLite file it names or defaults to.
 */
export function databaseWhere(target: DatabaseTarget): string {
  return target.engine === "postgres" ? `DATABASE_URL=${redactedUrl(target.url)}` : `the SQLite file ${target.path} (DATABASE_URL)`;
}
