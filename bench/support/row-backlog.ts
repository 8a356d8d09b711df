import { Database as SqliteDatabase } from "bun:sqlite";
import postgres from "postgres";
import { BenchError } from "./lifecycle.ts";
import type { BuiltDatabase } from "./scale-data.ts";

/** How often the visit log is looked at while it is summed (the summing step itself runs every 250 ms). */
const pollMs = 50;

/** What clearing a row's backlog took. */
export interface Cleared {
  ms: number;
  /** CPU µs this process spent on the database's behalf (SQLite's checkpoint), for the server's figure. */
  databaseCpuMicros: number;
}

export interface RowBacklog {
  /** Resolves once the shortener's visit log is summed and, on SQLite, its WAL copied back into the database file. */
  cleared(): Promise<Cleared>;
  end(): Promise<void>;
}

/**
 * What a benchmark row of redirects leaves behind for later: the visits
 * counted but not yet summed into the reports' tables (the summing step
 * works through them after the redirects that logged them, on the same
 * cores: docs/shortener.md, "Visit analytics") and, on SQLite, the pages
 * its writes left in the WAL, which a later commit copies back into the
 * database file (a checkpoint: for redirects spread over a million links,
 * thousands of pages all over the file). A row that starts before the row
 * before it is cleared pays for it; clearing first keeps each row's cost
 * its own, and timing the clearing after a row says what its own leftovers
 * cost. Past `deadlineMs` a backlog that is still there means the summing
 * step or the checkpoint is stuck, not slow. TRUNCATE leaves the next row an
 * empty WAL file to grow again, which costs little with `synchronous =
 * NORMAL`. Postgres' checkpoints are its own, spread over minutes, and left
 * alone: what a row's pages cost there when they are next written out is
 * not in its figures.
 */
export function rowBacklog(built: Pick<BuiltDatabase, "engine" | "url">, { deadlineMs }: { deadlineMs: number }): RowBacklog {
  const database = built.engine === "postgres" ? postgresDatabase(built.url) : sqliteDatabase(built.url.replace(/^sqlite:\/\//, ""));
  let ended: Promise<void> | undefined;
  return {
    async cleared() {
      const started = performance.now();
      while (await database.logged()) {
        if (performance.now() - started > deadlineMs) throw new BenchError(`the visit log was not summed within ${deadlineMs / 1000} s`);
        await Bun.sleep(pollMs);
      }
      let databaseCpuMicros = 0;
      const checkpointStarted = performance.now();
      for (const checkpoint = database.checkpoint; checkpoint; ) {
        const cpuBefore = process.cpuUsage();
        const done = checkpoint();
        const cpu = process.cpuUsage(cpuBefore);
        databaseCpuMicros += cpu.user + cpu.system;
        if (done) break;
        if (performance.now() - checkpointStarted > deadlineMs) throw new BenchError(`SQLite's checkpoint found the database busy for ${deadlineMs / 1000} s`);
        await Bun.sleep(pollMs);
      }
      return { ms: performance.now() - started, databaseCpuMicros };
    },
    end: () => {
      ended ??= database.end();
      return ended;
    },
  };
}

interface BenchedDatabase {
  /** Whether the visit log holds anything. */
  logged(): Promise<boolean>;
  /**
   * Copies what the WAL holds back into the database and empties it
   * (SQLite; Postgres has none): false when a reader or writer kept it
   * from finishing, to be tried again.
   */
  checkpoint?: () => boolean;
  end(): Promise<void>;
}

function postgresDatabase(url: string): BenchedDatabase {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  return {
    logged: async () => (await sql<Array<{ any: boolean }>>`SELECT EXISTS (SELECT 1 FROM link_visit_log) AS any`)[0]!.any,
    end: () => sql.end({ timeout: 5 }),
  };
}

function sqliteDatabase(path: string): BenchedDatabase {
  const db = new SqliteDatabase(path);
  // The shortener's commits hold the write lock for milliseconds: wait for them a moment, then try again.
  db.exec("PRAGMA busy_timeout = 1000");
  const logged = db.query<{ any: number }, []>("SELECT EXISTS (SELECT 1 FROM link_visit_log) AS any");
  const checkpoint = db.query<{ busy: number }, []>("PRAGMA wal_checkpoint(TRUNCATE)");
  return {
    logged: async () => logged.get()!.any === 1,
    checkpoint: () => checkpoint.get()!.busy === 0,
    end: async () => db.close(),
  };
}
