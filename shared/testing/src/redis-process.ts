import { freePort } from "./free-port.ts";
import { waitFor } from "./wait-for.ts";

export interface RedisProcess extends AsyncDisposable {
  url: string;
  port: number;
  pid: number;
  kill(): Promise<void>;
}

/**
 * A private redis-server on a free port, for tests that kill Redis while a
 * service runs, and for a run's throwaway Redis (throwaway-servers.ts).
 * Uses the same binary as the machine's own Redis unless given another;
 * `args` are more of its options (`--replicaof 127.0.0.1 <port>` for a replica).
 *
 * A primary sends a replica its data as soon as it asks (Redis waits 5 s by
 * default, for more replicas to share one transfer): a replica that joins,
 * or an old primary that comes back as one, is in step at once.
 */
export async function startRedisProcess({ binary = "redis-server", args = [] as string[] } = {}): Promise<RedisProcess> {
  const port = await freePort();
  const options = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--repl-diskless-sync-delay", "0"];
  const child = Bun.spawn([binary, ...options, ...args], {
    stdout: "ignore",
    stderr: "inherit",
  });
  await listening(port, "redis-server");
  const kill = async () => {
    child.kill("SIGKILL");
    await child.exited;
  };
  return { url: `redis://127.0.0.1:${port}/0`, port, pid: child.pid, kill, [Symbol.asyncDispose]: kill };
}

export interface RedisSentinelProcess extends AsyncDisposable {
  port: number;
  kill(): Promise<void>;
}

/**
 * A Redis Sentinel (`redis-server <file> --sentinel`) on a free port,
 * watching the primary at `primaryPort` under `name`: it calls the primary
 * down after `downAfterMs` and, with `quorum` sentinels agreeing, promotes a
 * replica. Its configuration file (which Sentinel rewrites) lives in a
 * folder of its own, removed with the process.
 */
export async function startRedisSentinel(options: { name: string; primaryPort: number; quorum: number; downAfterMs?: number }): Promise<RedisSentinelProcess> {
  const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const port = await freePort();
  const folder = mkdtempSync(join(tmpdir(), "redis-sentinel-"));
  const file = join(folder, "sentinel.conf");
  writeFileSync(
    file,
    [
      `port ${port}`,
      "bind 127.0.0.1",
      `dir ${folder}`,
      `sentinel monitor ${options.name} 127.0.0.1 ${options.primaryPort} ${options.quorum}`,
      `sentinel down-after-milliseconds ${options.name} ${options.downAfterMs ?? 1000}`,
      `sentinel failover-timeout ${options.name} 10000`,
      `sentinel parallel-syncs ${options.name} 1`,
      "",
    ].join("\n"),
  );
  const child = Bun.spawn(["redis-server", file, "--sentinel"], { stdout: "ignore", stderr: "inherit" });
  await listening(port, "redis-sentinel");
  const kill = async () => {
    child.kill("SIGKILL");
    await child.exited;
    rmSync(folder, { recursive: true, force: true });
  };
  return { port, kill, [Symbol.asyncDispose]: kill };
}

/** Waits until something accepts connections on 127.0.0.1:`port`. */
async function listening(port: number, what: string): Promise<void> {
  await waitFor(`${what} on ${port}`, async () => {
    const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } }).catch(() => null);
    socket?.end();
    return socket !== null;
  });
}
