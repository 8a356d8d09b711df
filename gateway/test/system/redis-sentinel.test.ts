import { afterAll, describe, expect, test } from "bun:test";
import { replicationField, startRedisProcess, startRedisSentinel, waitFor, type RedisProcess, type RedisSentinelProcess } from "@linkgeo/testing";
import Redis from "ioredis";
import { RedisTokenBuckets } from "@linkgeo/shared/rate-limit";
import { createRedisClient, parseRedisUrl } from "@linkgeo/shared";
import { loadThroughFailover, startFailoverStack } from "../support/redis-failover-stack.ts";

// A real primary, its replica and three sentinels on loopback: a service's Redis
// client given a redis+sentinel:// URL follows the primary through a failover.

const name = "linkgeo";
const stack = new AsyncDisposableStack();

afterAll(async () => {
  await stack.disposeAsync();
});

/** Asks the server on `port` with a client of its own. */
async function ask<T>(port: number, command: string, ...args: (string | number)[]): Promise<T> {
  const direct = new Redis({ port, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await direct.connect();
    return (await direct.call(command, ...args)) as T;
  } finally {
    direct.disconnect();
  }
}

interface SentinelSet {
  primary: RedisProcess;
  replica: RedisProcess;
  /** `redis+sentinel://…/linkgeo/0` for REDIS_URL. */
  url: string;
  /** The primary's port as the sentinels say it now. */
  primaryPort(): Promise<number>;
}

/** A primary, a replica in sync with it, and three sentinels that know both and each other; all go with `stack`. */
async function startSentinelSet(): Promise<SentinelSet> {
  const primary = stack.use(await startRedisProcess());
  const replica = stack.use(await startRedisProcess({ args: ["--replicaof", "127.0.0.1", String(primary.port)] }));
  await waitFor("the replica in sync", async () => (await ask<string>(replica.port, "INFO", "replication")).includes("master_link_status:up"));
  const sentinels: RedisSentinelProcess[] = [];
  for (let i = 0; i < 3; i++) sentinels.push(stack.use(await startRedisSentinel({ name, primaryPort: primary.port, quorum: 2, downAfterMs: 1000 })));
  // Each sentinel has found the replica (through the primary) and the other sentinels (through hello messages).
  await waitFor(
    "the sentinels to know the replica and each other",
    async () =>
      (await ask<unknown[]>(sentinels[2]!.port, "SENTINEL", "replicas", name)).length === 1 &&
      (await ask<unknown[]>(sentinels[2]!.port, "SENTINEL", "sentinels", name)).length === 2,
    20_000,
  );
  return {
    primary,
    replica,
    url: `redis+sentinel://${sentinels.map((s) => `127.0.0.1:${s.port}`).join(",")}/${name}/0`,
    primaryPort: async () => Number((await ask<[string, string]>(sentinels[0]!.port, "SENTINEL", "get-master-addr-by-name", name))[1]),
  };
}

/** The clients on `port` other than sentinels' (which name their connections) and the one asking. */
async function serviceClients(port: number): Promise<number> {
  const list = await ask<string>(port, "CLIENT", "LIST");
  return list.split("\n").filter((line) => line.startsWith("id=") && !/ name=sentinel-/.test(line) && !/ cmd=client\|list /.test(line)).length;
}

// The two cases run side by side: each starts a set of its own (own ports, own processes) and spends most of
// its time waiting for the sentinels' timers, which no amount of CPU shortens.
describe.concurrent("Redis through Sentinel", () => {
  test("a service's client finds the primary through the sentinels, runs the rate-limit script there, and after the primary dies finds the promoted replica", async () => {
    const set = await startSentinelSet();
    const redis = createRedisClient({ ...parseRedisUrl(set.url), keyPrefix: "sentinel-test:" });
    try {
      const buckets = new RedisTokenBuckets(redis, { commandTimeoutMs: 2_000 });
      const rule = { capacity: 5, perSecond: 0.01 };
      await waitFor("the client connected to the primary", async () => (await redis.set("hello", "1").catch(() => null)) === "OK");
      expect((await buckets.take("client-a", rule)).remaining).toBe(4);
      expect(await redis.exists("rate-limit:client-a")).toBe(1);
      // The replica has it too: the bucket survives the failover.
      await waitFor("the bucket on the replica", async () => (await ask<string>(set.replica.port, "INFO", "keyspace")).includes("keys=2"));

      await set.primary.kill();
      await waitFor("a replica promoted by the sentinels", async () => (await set.primaryPort()) === set.replica.port, 30_000);
      // The same client, no restart: its next commands go to the new primary.
      await waitFor("the client writing to the new primary", async () => (await redis.set("after", "1").catch(() => null)) === "OK", 30_000);
      expect((await ask<string>(set.replica.port, "INFO", "replication")).includes("role:master")).toBe(true);
      expect(await redis.get("hello")).toBe("1");
      // The bucket went along: one more token taken, not a fresh bucket.
      expect((await buckets.take("client-a", rule)).remaining).toBe(3);
    } finally {
      redis.disconnect();
    }
  }, 90_000);

  test("the three services through Sentinel, its primary killed under load: redirects and geocodes answered, counts exact, the create bucket kept", async () => {
    const set = await startSentinelSet();
    const services = await startFailoverStack(stack, { REDIS_URL: set.url });
    const outcome = await loadThroughFailover(services, {
      replicated: async () => {
        const written = replicationField(await ask<string>(set.primary.port, "INFO", "replication"), "master_repl_offset");
        await waitFor(
          "the replica in step",
          async () => replicationField(await ask<string>(set.replica.port, "INFO", "replication"), "slave_repl_offset") >= written,
        );
      },
      failOver: async () => {
        await set.primary.kill();
        await waitFor("a replica promoted by the sentinels", async () => (await set.primaryPort()) === set.replica.port, 30_000);
        // The three services' clients have asked the sentinels again and reconnected to it.
        await waitFor("the services connected to the new primary", async () => (await serviceClients(set.replica.port)) >= 3, 30_000);
      },
    });
    console.log("Redis Sentinel failover under load:", outcome);
  }, 120_000);
});
