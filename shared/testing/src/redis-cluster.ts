import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Redis from "ioredis";
import { startRedisProcess, type RedisProcess } from "./redis-process.ts";
import { waitFor } from "./wait-for.ts";

export interface RedisClusterProcesses extends AsyncDisposable {
  /** Every node started, primaries and replicas, alive or killed. */
  nodes: RedisProcess[];
  /** `127.0.0.1:<port>,…` of every node: a value for REDIS_CLUSTER_NODES. */
  nodeList: string;
  /** The port of the primary serving `key`'s hash slot now, asked of a living node. */
  primaryOf(key: string): Promise<number>;
  /** The ports of the primaries serving slots now. */
  primaries(): Promise<number[]>;
  /**
   * Resolves once every living node says the cluster is ok, `primaryCount`
   * living primaries serve the slots, and every living replica's link to its
   * primary is up (a replica still in its first sync cannot be promoted).
   */
  healthy(timeoutMs?: number): Promise<void>;
  /** Resolves once every living replica has replayed what its primary had written when called. */
  inSync(timeoutMs?: number): Promise<void>;
  /** Asks the node on `port` with a client of its own (not a cluster client): `CLUSTER`, `INFO`, `SCAN`, `WAIT`… */
  ask<T = unknown>(port: number, command: string, ...args: (string | number)[]): Promise<T>;
  /** SIGKILLs the node on `port`. */
  kill(port: number): Promise<void>;
  /** SIGSTOPs the node on `port`: it keeps its connections open and answers nothing (a hung host), until `resume`. */
  pause(port: number): void;
  /** SIGCONTs a paused node. */
  resume(port: number): void;
}

/**
 * A real Redis Cluster on loopback: `primaryCount` primaries, each with
 * `replicasPerPrimary` replicas (Debian's redis-server with
 * `--cluster-enabled yes`, joined by `redis-cli --cluster create`). A
 * primary that stops answering for `nodeTimeoutMs` is failed over to its
 * replica. Nodes keep their `nodes.conf` in a folder removed at the end.
 */
export async function startRedisCluster({ primaryCount = 3, replicasPerPrimary = 1, nodeTimeoutMs = 1_000 } = {}): Promise<RedisClusterProcesses> {
  const folder = mkdtempSync(join(tmpdir(), "redis-cluster-"));
  const nodes: RedisProcess[] = [];
  const dead = new Set<number>();
  const stopAll = async () => {
    for (const node of nodes) await node.kill();
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < primaryCount * (1 + replicasPerPrimary); i++) {
      const nodeFolder = join(folder, `node-${i}`);
      mkdirSync(nodeFolder);
      nodes.push(
        await startRedisProcess({
          args: ["--cluster-enabled", "yes", "--cluster-node-timeout", String(nodeTimeoutMs), "--dir", nodeFolder, "--cluster-config-file", "nodes.conf"],
        }),
      );
    }
    const create = Bun.spawn(
      ["redis-cli", "--cluster", "create", ...nodes.map((n) => `127.0.0.1:${n.port}`), "--cluster-replicas", String(replicasPerPrimary), "--cluster-yes"],
      { stdout: "pipe", stderr: "pipe" },
    );
    const [created, output] = await Promise.all([create.exited, new Response(create.stdout).text()]);
    if (created !== 0) throw new Error(`redis-cli --cluster create failed (${created}): ${output}${await new Response(create.stderr).text()}`);
  } catch (error) {
    await stopAll();
    throw error;
  }

  const ask = async <T>(port: number, command: string, ...args: (string | number)[]): Promise<T> => {
    const direct = new Redis({ port, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    direct.on("error", () => {});
    try {
      await direct.connect();
      return (await direct.call(command, ...args)) as T;
    } finally {
      direct.disconnect();
    }
  };
  const living = () => nodes.filter((n) => !dead.has(n.port));
  /** `CLUSTER SLOTS` of a living node: [first slot, last slot, [host, port, id], …replicas]. */
  const slots = async () => ask<[number, number, [string, number, string]][]>(living()[0]!.port, "CLUSTER", "SLOTS");
  const primaries = async () => [...new Set((await slots()).map(([, , primary]) => Number(primary[1])))].sort();

  const cluster: RedisClusterProcesses = {
    nodes,
    nodeList: nodes.map((n) => `127.0.0.1:${n.port}`).join(","),
    async primaryOf(key) {
      const slot = await ask<number>(living()[0]!.port, "CLUSTER", "KEYSLOT", key);
      const range = (await slots()).find(([first, last]) => slot >= first && slot <= last);
      if (!range) throw new Error(`no primary serves slot ${slot}`);
      return Number(range[2][1]);
    },
    primaries,
    async healthy(timeoutMs = 30_000) {
      await waitFor(
        `the Redis Cluster ok on every living node with ${primaryCount} primaries`,
        async () => {
          for (const node of living()) {
            const info = await ask<string>(node.port, "CLUSTER", "INFO").catch(() => "");
            if (!info.includes("cluster_state:ok")) return false;
          }
          const serving: number[] = await primaries().catch(() => []);
          if (serving.length !== primaryCount || serving.some((port) => dead.has(port))) return false;
          for (const node of living().filter((n) => !serving.includes(n.port))) {
            const replication = await ask<string>(node.port, "INFO", "replication").catch(() => "");
            if (!replication.includes("master_link_status:up")) return false;
          }
          return true;
        },
        timeoutMs,
      );
    },
    async inSync(timeoutMs = 10_000) {
      const offsets = new Map<number, number>();
      for (const port of await primaries()) offsets.set(port, replicationField(await ask<string>(port, "INFO", "replication"), "master_repl_offset"));
      await waitFor(
        "every replica in step with its primary",
        async () => {
          for (const node of living().filter((n) => !offsets.has(n.port))) {
            const replication = await ask<string>(node.port, "INFO", "replication");
            const primaryPort = replicationField(replication, "master_port");
            if (replicationField(replication, "slave_repl_offset") < (offsets.get(primaryPort) ?? 0)) return false;
          }
          return true;
        },
        timeoutMs,
      );
    },
    ask,
    async kill(port) {
      dead.add(port);
      await nodes.find((n) => n.port === port)?.kill();
    },
    pause(port) {
      // Not asked while paused: a question would wait for ever.
      dead.add(port);
      process.kill(nodes.find((n) => n.port === port)!.pid, "SIGSTOP");
    },
    resume(port) {
      process.kill(nodes.find((n) => n.port === port)!.pid, "SIGCONT");
      dead.delete(port);
    },
    [Symbol.asyncDispose]: stopAll,
  };
  try {
    await cluster.healthy();
  } catch (error) {
    await stopAll();
    throw error;
  }
  return cluster;
}

/** A number from `INFO replication`: `master_repl_offset`, `slave_repl_offset`, `master_port`. */
export function replicationField(info: string, field: string): number {
  const match = new RegExp(`^${field}:(\\d+)\\r?$`, "m").exec(info);
  if (!match) throw new Error(`INFO replication has no ${field}`);
  return Number(match[1]);
}
