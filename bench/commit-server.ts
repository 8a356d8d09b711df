/**
 * The commit ceiling of the redirect benchmarks: a Bun.serve that answers
 * every request with the shortener's 302 once a durable commit that came
 * after it has returned, and does nothing else. Requests that arrive while
 * commits are in flight wait for the next one, as the shortener's visits do
 * (VisitCounter), so its rate is what group commit alone allows on this
 * machine: no row, no index, no analytics. Run as its own process.
 *
 *   PORT=4000 DATABASE_URL=postgres://127.0.0.1/test bun run bench/commit-server.ts
 *   PORT=4000 DATABASE_URL=/tmp/ceiling.db IN_FLIGHT=4 bun run bench/commit-server.ts
 *
 * DATABASE_URL: a Postgres URL (each commit writes a transaction id and
 * waits for its WAL flush, synchronous_commit as the server has it) or a
 * SQLite file (WAL, synchronous=NORMAL, one row inserted per commit, as the
 * shortener opens it). IN_FLIGHT (1): commits that may be in flight at
 * once, each on a connection of its own; a request waits for the next to
 * leave. HEADERS: the response's headers (a JSON object).
 */
import { announceAndStopOnSignal } from "./support/served-child.ts";
import { Database } from "bun:sqlite";
import postgres from "postgres";

const port = Number(process.env.PORT ?? 0);
const url = process.env.DATABASE_URL ?? "";
const inFlight = Number(process.env.IN_FLIGHT ?? 1);
const headers = JSON.parse(process.env.HEADERS ?? "{}") as Record<string, string>;

/** One durable commit. */
function committer(): () => Promise<void> {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const sql = postgres(url, { max: inFlight, onnotice: () => {} });
    // txid_current() gives the transaction an id, so its COMMIT writes a record and waits for the flush; an empty one would not.
    return async () => {
      await sql.begin((tx) => tx`SELECT txid_current()`);
    };
  }
  const db = new Database(url, { create: true });
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("CREATE TABLE IF NOT EXISTS commit_probe (at INTEGER NOT NULL)");
  const insert = db.prepare("INSERT INTO commit_probe (at) VALUES (?)");
  return async () => {
    insert.run(Date.now());
  };
}

const commit = committer();
let waiting: Array<() => void> = [];
let running = 0;

function pump(): void {
  while (running < inFlight && waiting.length > 0) {
    const batch = waiting;
    waiting = [];
    running++;
    commit()
      .then(() => {
        for (const resolve of batch) resolve();
      })
      .finally(() => {
        running--;
        pump();
      });
  }
}

const server = Bun.serve({
  hostname: "127.0.0.1",
  port,
  fetch: async () => {
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (running < inFlight) queueMicrotask(pump);
    });
    return new Response(null, { status: 302, headers });
  },
});

announceAndStopOnSignal(server);
