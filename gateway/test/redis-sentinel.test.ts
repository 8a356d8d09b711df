import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startRedisProcess, startRedisSentinel, waitFor, type RedisProcess, type RedisSentinelProcess } from "@linkgeo/testing";
import Redis from "ioredis";
import { RedisTokenBuckets } from "../src/rate-limit/redis-token-buckets.ts";
import { createRedisClient, parseRedisUrl } from "@linkgeo/shared";

// A real primary, its replica and three sentinels on loopback: a service's Redis
// client given a redis+sentinel:// URL follows the primary through a failover.
describe("Redis through Sentinel", () => {
  let primary: RedisProcess;
  let replica: RedisProcess;
  const sentinels: RedisSentinelProcess[] = [];
  const name = "linkgeo";

  const info = async (port: number, section: string) => {
    const direct = new Redis({ port, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await direct.connect();
      return await direct.info(section);
    } finally {
      direct.disconnect();
    }
  };
  const primaryKnownToSentinels = async () => {
    const asked = new Redis({ port: sentinels[0]!.port, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await asked.connect();
      const [, port] = (await asked.call("SENTINEL", "get-master-addr-by-name", name)) as [string, string];
      return Number(port);
    } finally {
      asked.disconnect();
    }
  };

  beforeAll(async () => {
    primary = await startRedisProcess();
    replica = await startRedisProcess({ args: ["--replicaof", "127.0.0.1", String(primary.port)] });
    await waitFor("the replica in sync", async () => (await info(replica.port, "replication")).includes("master_link_status:up"));
    for (let i = 0; i < 3; i++) sentinels.push(await startRedisSentinel({ name, primaryPort: primary.port, quorum: 2, downAfterMs: 1000 }));
    // Each sentinel has found the replica (through the primary) and the other sentinels (through hello messages).
    await waitFor(
      "the sentinels to know the replica and each other",
      async () => {
        const asked = new Redis({ port: sentinels[2]!.port, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 0 });
        try {
          await asked.connect();
          const replicas = (await asked.call("SENTINEL", "replicas", name)) as unknown[];
          const others = (await asked.call("SENTINEL", "sentinels", name)) as unknown[];
          return replicas.length === 1 && others.length === 2;
        } finally {
          asked.disconnect();
        }
      },
      20_000,
    );
  }, 40_000);
  afterAll(async () => {
    for (const sentinel of sentinels) await sentinel.kill();
    await replica?.kill();
    await primary?.kill();
  });

  test("a service's client finds the primary through the sentinels, runs the rate-limit script there, and after the primary dies finds the promoted replica", async () => {
    const target = parseRedisUrl(`redis+sentinel://${sentinels.map((s) => `127.0.0.1:${s.port}`).join(",")}/${name}/0`);
    const redis = createRedisClient({ ...target, keyPrefix: "sentinel-test:" });
    try {
      const buckets = new RedisTokenBuckets(redis, { commandTimeoutMs: 2_000 });
      const rule = { capacity: 5, perSecond: 0.01 };
      await waitFor("the client connected to the primary", async () => (await redis.set("hello", "1").catch(() => null)) === "OK");
      expect((await buckets.take("client-a", rule)).remaining).toBe(4);
      expect(await redis.exists("rate-limit:client-a")).toBe(1);
      // The replica has it too: the bucket survives the failover.
      await waitFor("the bucket on the replica", async () => (await info(replica.port, "keyspace")).includes("keys=2"));

      await primary.kill();
      await waitFor("a replica promoted by the sentinels", async () => (await primaryKnownToSentinels()) === replica.port, 30_000);
      // The same client, no restart: its next commands go to the new primary.
      await waitFor("the client writing to the new primary", async () => (await redis.set("after", "1").catch(() => null)) === "OK", 30_000);
      expect((await info(replica.port, "replication")).includes("role:master")).toBe(true);
      expect(await redis.get("hello")).toBe("1");
      // The bucket went along: one more token taken, not a fresh bucket.
      expect((await buckets.take("client-a", rule)).remaining).toBe(3);
    } finally {
      redis.disconnect();
    }
  }, 90_000);
});
