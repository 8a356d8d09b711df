import { join } from "node:path";
import postgres from "postgres";
import { freePort } from "./free-port.ts";
import { asClusterOwner, initPostgresCluster, postgresBinary, serverFolder, spawnPostgres } from "./throwaway-servers.ts";
import { waitFor } from "./wait-for.ts";

export interface PostgresWithReplica extends AsyncDisposable {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` of the primary. */
  primaryUrl: string;
  /** The same database on the streaming replica (read-only). */
  replicaUrl: string;
  /** Stops the replica's replay (`pg_wal_replay_pause()`): it keeps answering, with what it had. */
  pauseReplay(): Promise<void>;
  /** Lets the replica replay again and resolves once it has caught up with the primary. */
  resumeReplay(): Promise<void>;
  /** Resolves once the replica has replayed everything the primary had written when called. */
  caughtUp(): Promise<void>;
  /** SIGKILLs the replica's backends and postmaster, and resolves once it has exited. */
  killReplica(): Promise<void>;
}

/**
 * A Postgres primary and a streaming replica of it, made for one test file
 * on loopback ports: `initdb`, then `pg_basebackup -R` (which writes the
 * replica's `standby.signal` and connection to the primary), each server
 * started as the cluster's owner. Both go, with their folder, at the end.
 */
export async function startPostgresWithReplica(): Promise<PostgresWithReplica> {
  const initdb = postgresBinary("initdb");
  const { dir, pids, stop } = serverFolder("postgres-replica-");
  try {
    const primaryPort = await freePort();
    initPostgresCluster(initdb, dir, join(dir, "primary"));
    await spawnPostgres({ initdb, dir, data: join(dir, "primary"), port: primaryPort, pids, log: "primary.log" });
    const copied = Bun.spawnSync(
      asClusterOwner([
        join(initdb, "..", "pg_basebackup"),
        "-h",
        "127.0.0.1",
        "-p",
        String(primaryPort),
        "-U",
        "postgres",
        "-D",
        join(dir, "replica"),
        "-R",
        "-X",
        "stream",
        // A fast checkpoint (a spread one waits on the primary's pace) and no fsync: a throwaway copy.
        "--checkpoint=fast",
        "--no-sync",
      ]),
      { cwd: dir, stdout: "pipe", stderr: "pipe" },
    );
    if (!copied.success) throw new Error(`test kit: pg_basebackup failed (exit ${copied.exitCode}):\n${copied.stderr.toString().slice(-2000)}`);
    const replicaPort = await freePort();
    const replica = await spawnPostgres({ initdb, dir, data: join(dir, "replica"), port: replicaPort, pids, log: "replica.log" });

    const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
    const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
    const once = async <T>(url: string, run: (sql: postgres.Sql) => Promise<T>): Promise<T> => {
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      try {
        return await run(sql);
      } finally {
        await sql.end();
      }
    };
    const caughtUp = async () => {
      const [primary] = await once(primaryUrl, (sql) => sql<{ lsn: string }[]>`SELECT pg_current_wal_lsn()::text AS lsn`);
      const lsn = primary!.lsn;
      await waitFor("the replica to replay what the primary wrote", async () => {
        const [row] = await once(replicaUrl, (sql) => sql<{ done: boolean }[]>`SELECT pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn AS done`);
        return row?.done === true;
      });
    };
    await caughtUp();
    return {
      primaryUrl,
      replicaUrl,
      pauseReplay: async () => {
        await once(replicaUrl, (sql) => sql`SELECT pg_wal_replay_pause()`);
        await waitFor("the replay paused", async () => {
          const [row] = await once(replicaUrl, (sql) => sql<{ state: string }[]>`SELECT pg_get_wal_replay_pause_state() AS state`);
          return row?.state === "paused";
        });
      },
      resumeReplay: async () => {
        await once(replicaUrl, (sql) => sql`SELECT pg_wal_replay_resume()`);
        await caughtUp();
      },
      caughtUp,
      killReplica: async () => {
        // Its backends first: a postmaster killed alone leaves them answering their connections for a while.
        Bun.spawnSync(["pkill", "-KILL", "-P", String(replica.pid)]);
        replica.kill("SIGKILL");
        await replica.exited;
      },
      [Symbol.asyncDispose]: async () => stop(),
    };
  } catch (error) {
    stop();
    throw error;
  }
}
