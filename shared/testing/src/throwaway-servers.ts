import { spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installDebianPackage } from "./debian-package.ts";
import { freePort } from "./free-port.ts";
import { startRedisProcess } from "./redis-process.ts";
import { waitFor } from "./wait-for.ts";

/** Where the suites look for their servers unless TEST_POSTGRES_URL / TEST_REDIS_URL say otherwise. */
export const defaultTestPostgresUrl = "postgres://postgres@127.0.0.1:5432/postgres";
export const defaultTestRedisUrl = "redis://127.0.0.1:6379/1";

/** A Postgres cluster and a redis-server made for one run, in a folder of their own. */
export interface ThrowawayServers {
  postgresUrl: string | undefined;
  redisUrl: string | undefined;
  /** The folder holding the cluster and the logs; gone once stopped. */
  dir: string;
  /** The servers' processes. */
  pids: readonly number[];
  /** Stops both and removes the folder; synchronous, so an exit handler may call it. Safe to call twice. */
  stop(): void;
}

/**
 * What the test kit does before the first suite (preload.ts): a server that
 * answers at TEST_POSTGRES_URL / TEST_REDIS_URL (defaults 127.0.0.1:5432 and
 * :6379) is used as it is; for one that does not, a throwaway one is
 * started on a free port and the variable is pointed at it, so every suite
 * and every service it starts finds it. The caller stops them when the run
 * ends (`bun test` emits no "exit": the preload's afterAll does); they are
 * also stopped on exit, SIGINT and SIGTERM, and, should the run be killed
 * outright, by a watchdog that outlives it. Their folder goes with them.
 */
export async function useTestServers(): Promise<ThrowawayServers | undefined> {
  const postgresUrl = process.env.TEST_POSTGRES_URL || defaultTestPostgresUrl;
  const redisUrl = process.env.TEST_REDIS_URL || defaultTestRedisUrl;
  const [postgresAnswers, redisAnswers] = await Promise.all([answers(postgresUrl), answers(redisUrl)]);
  if (postgresAnswers && redisAnswers) return undefined;
  const started = performance.now();
  const servers = await startThrowawayServers({ postgres: !postgresAnswers, redis: !redisAnswers });
  if (servers.postgresUrl) process.env.TEST_POSTGRES_URL = servers.postgresUrl;
  if (servers.redisUrl) process.env.TEST_REDIS_URL = servers.redisUrl;
  const stopAndExit = (signal: NodeJS.Signals) => {
    servers.stop();
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("exit", () => servers.stop());
  process.once("SIGINT", stopAndExit);
  process.once("SIGTERM", stopAndExit);
  const what = [servers.postgresUrl && `Postgres at ${servers.postgresUrl}`, servers.redisUrl && `Redis at ${servers.redisUrl}`].filter(Boolean).join(" and ");
  const missing = [!postgresAnswers && postgresUrl, !redisAnswers && redisUrl].filter(Boolean).join(" or ");
  console.error(
    `test kit: nothing answers at ${missing}: started a throwaway ${what} in ${servers.dir} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  return servers;
}

/** Starts the servers asked for; `stop()` ends them. */
export async function startThrowawayServers(wanted: { postgres: boolean; redis: boolean }): Promise<ThrowawayServers> {
  const binaries = { initdb: wanted.postgres ? postgresBinary("initdb") : undefined, redis: wanted.redis ? redisBinary() : undefined };
  const { dir, pids, stop } = serverFolder("linkgeo-test-servers-");
  try {
    const [postgresUrl, redisUrl] = await Promise.all([
      binaries.initdb ? startPostgres(binaries.initdb, dir, pids) : undefined,
      binaries.redis ? startRedis(binaries.redis, pids) : undefined,
    ]);
    startWatchdog(process.pid, pids, dir);
    return { postgresUrl, redisUrl, dir, pids, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/**
 * A new temporary folder for servers, and the list their pids go in; `stop`
 * (synchronous, so an exit handler may call it; safe to call twice) ends
 * them and removes the folder.
 */
export function serverFolder(prefix: string): { dir: string; pids: number[]; stop: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const pids: number[] = [];
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    stopProcesses(pids);
    rmSync(dir, { recursive: true, force: true });
  };
  return { dir, pids, stop };
}

/** Whether something accepts a TCP connection at the URL's host and port within a second. */
async function answers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  const connected = Bun.connect({ hostname: hostname.replace(/^\[|\]$/g, ""), port: Number(port), socket: { data() {} } }).then(
    (socket) => {
      socket.end();
      return true;
    },
    () => false,
  );
  return Promise.race([connected, Bun.sleep(1_000).then(() => false)]);
}

/** A Postgres program from Debian's versioned folder (newest version), installing the package when there is none. */
export function postgresBinary(name: string): string {
  const find = () => {
    const root = "/usr/lib/postgresql";
    const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
    const inVersion = versions.map((version) => join(root, version, "bin", name)).find((path) => existsSync(path));
    return inVersion ?? Bun.which(name) ?? undefined;
  };
  const found = find();
  if (found) return found;
  installOrExplain("postgresql", "Postgres", "TEST_POSTGRES_URL");
  const installed = find();
  if (!installed) throw new Error(`test kit: Debian's postgresql is installed but ${name} is not to be found`);
  return installed;
}

function redisBinary(): string {
  const found = Bun.which("redis-server");
  if (found) return found;
  installOrExplain("redis-server", "Redis", "TEST_REDIS_URL");
  return Bun.which("redis-server") ?? "/usr/bin/redis-server";
}

/** Installs a Debian package, saying so in one line, or fails at once with what to install. */
function installOrExplain(debianPackage: string, server: string, variable: string): void {
  if (process.getuid?.() !== 0 || !Bun.which("apt-get")) {
    throw new Error(
      `test kit: no ${server} answers at ${variable} and its programs are not installed here; ` +
        `install ${server} (Debian: apt-get install ${debianPackage}) or point ${variable} at a running server.`,
    );
  }
  console.error(`test kit: installing Debian's ${debianPackage} for a throwaway ${server}`);
  installDebianPackage(debianPackage);
}

/** initdb refuses root: the cluster belongs to `postgres` (Debian's) or else `nobody`, and runs as that user. */
function clusterUser(): { name: string; uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  if (owner) return owner;
  for (const name of ["postgres", "nobody"]) {
    const id = Bun.spawnSync(["id", "-u", name]);
    const gid = Bun.spawnSync(["id", "-g", name]);
    if (id.success && gid.success) return (owner = { name, uid: Number(id.stdout.toString()), gid: Number(gid.stdout.toString()) });
  }
  throw new Error("test kit: running as root, and neither a postgres nor a nobody user exists to own a throwaway Postgres cluster");
}
let owner: { name: string; uid: number; gid: number } | undefined;

async function startPostgres(initdb: string, dir: string, pids: number[]): Promise<string> {
  const data = join(dir, "postgres");
  initPostgresCluster(initdb, dir, data);
  const port = await freePort();
  await spawnPostgres({ initdb, dir, data, port, pids });
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

/** Runs `cmd` as the cluster's owner when the tests run as root (Postgres' programs refuse root). */
export function asClusterOwner(cmd: string[]): string[] {
  const user = clusterUser();
  return user ? ["setpriv", `--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", ...cmd] : cmd;
}

/** Gives `dir` to the cluster's owner (when running as root), so its programs may write there. */
export function giveToClusterOwner(dir: string): void {
  const user = clusterUser();
  if (user) chownSync(dir, user.uid, user.gid);
}

/** A new cluster in `data` (inside `dir`, given to its owner): user postgres, trust for every local and loopback connection, replication included. */
export function initPostgresCluster(initdb: string, dir: string, data: string): void {
  giveToClusterOwner(dir);
  const made = Bun.spawnSync(asClusterOwner([initdb, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"]), {
    cwd: dir,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (!made.success) throw new Error(`test kit: initdb failed (exit ${made.exitCode}):\n${made.stderr.toString().slice(-2000)}`);
}

/**
 * Starts `postgres` on the cluster in `data`, listening on 127.0.0.1:`port`
 * only, its log in `dir/<log>`, and resolves once it takes connections.
 * Returns the process; its pid is added to `pids`.
 */
export async function spawnPostgres(options: { initdb: string; dir: string; data: string; port: number; pids: number[]; log?: string }) {
  const { initdb, dir, data, port, pids } = options;
  const log = join(dir, options.log ?? "postgres.log");
  const server = Bun.spawn(
    asClusterOwner([
      join(initdb, "..", "postgres"),
      "-D",
      data,
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "max_connections=200",
      "-c",
      "fsync=off",
    ]),
    { cwd: dir, stdout: "ignore", stderr: Bun.file(log) },
  );
  pids.push(server.pid);
  await waitFor(`the throwaway Postgres on port ${port}`, async () => {
    if (server.exitCode !== null) throw new Error(`test kit: the throwaway Postgres exited (${server.exitCode}); see its log ${log}`);
    const ready = Bun.spawnSync([join(initdb, "..", "pg_isready"), "-h", "127.0.0.1", "-p", String(port), "-q"]);
    return ready.success;
  });
  return server;
}

async function startRedis(binary: string, pids: number[]): Promise<string> {
  const redis = await startRedisProcess({ binary });
  pids.push(redis.pid);
  return `redis://127.0.0.1:${redis.port}/1`;
}

/** SIGQUIT (Postgres' immediate stop; Redis quits on it too), then SIGKILL for any still there after two seconds. */
function stopProcesses(pids: readonly number[]): void {
  const signal = (pid: number, name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // Already gone.
    }
  };
  for (const pid of pids) signal(pid, "SIGQUIT");
  const giveUpAt = Date.now() + 2_000;
  while (pids.some(isRunning) && Date.now() < giveUpAt) Bun.sleepSync(20);
  for (const pid of pids.filter(isRunning)) signal(pid, "SIGKILL");
}

/** Whether a process runs: on Linux a zombie (exited, not yet reaped by its parent) does not. */
export function isRunning(pid: number): boolean {
  if (existsSync("/proc/self/stat")) {
    try {
      return !/^\d+ \(.*\) [ZX]/s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A shell in a session of its own that waits for the run's process to end,
 * however it ends, then stops the servers and removes the folder: what the
 * run's own exit handlers do, for when they never ran (SIGKILL).
 */
function startWatchdog(runner: number, pids: readonly number[], dir: string): void {
  const list = pids.join(" ");
  const script = `while kill -0 ${runner} 2>/dev/null; do sleep 0.5; done; kill -QUIT ${list} 2>/dev/null; sleep 1; kill -KILL ${list} 2>/dev/null; rm -rf '${dir}'`;
  const watchdog = spawn("sh", ["-c", script], { detached: true, stdio: "ignore" });
  watchdog.unref();
}
