import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createRedisClient, parseRedisClusterNodes, pingRedis, type RedisClient } from "@linkgeo/shared";
import { startRedisCluster, waitFor, type RedisClusterProcesses } from "@linkgeo/testing";
import { RedisTokenBuckets } from "@linkgeo/shared/rate-limit";
import { RedisCacheLevel } from "../../../geocoder/src/cache/redis-cache-level.ts";
import { healthyState } from "../../../geocoder/src/health/health-rules.ts";
import { RedisHealthStore } from "../../../geocoder/src/health/redis-health-store.ts";
import { RedisRateLimiter } from "../../../geocoder/src/rate-limit/redis-rate-limiter.ts";
import { RedisLinkCache } from "../../../shortener/src/cache/redis-link-cache.ts";
import { failoverPrefixes, loadThroughFailover, startFailoverStack } from "../support/redis-failover-stack.ts";

// A real Redis Cluster on loopback (3 primaries, each with a replica) under
// the three services, each given REDIS_CLUSTER_NODES. A command or script
// whose keys spread over two slots fails on a Cluster (CROSSSLOT), so each
// concern's Redis work is run here against one, and a primary is killed
// under load.

let cluster: RedisClusterProcesses;
const stack = new AsyncDisposableStack();

beforeAll(async () => {
  cluster = stack.use(await startRedisCluster({ primaryCount: 3, replicasPerPrimary: 1 }));
}, 60_000);

afterAll(async () => {
  await stack.disposeAsync();
});

/** The keys under `prefix` on each primary serving slots now, by port. */
async function keysByPrimary(prefix: string): Promise<Map<number, string[]>> {
  const found = new Map<number, string[]>();
  for (const port of await cluster.primaries()) found.set(port, await cluster.ask<string[]>(port, "KEYS", `${prefix}*`));
  return found;
}

/** A service's client, started from one node only: it learns the others from it. */
async function connectedClient(keyPrefix: string): Promise<RedisClient> {
  const redis = createRedisClient({ clusterNodes: parseRedisClusterNodes(cluster.nodeList.split(",")[0]!), keyPrefix });
  await waitFor("the cluster client ready", async () => (await redis.set("hello", "1").catch(() => null)) === "OK");
  return redis;
}

describe("the services' Redis work on a Redis Cluster", () => {
  test("every script runs (one key each), the link cache works, and the geocoder's L1 reads and writes a batch over every primary", async () => {
    const prefix = "cluster-units:";
    const redis = await connectedClient(prefix);
    try {
      // The scripts go through fail-soft wrappers that would answer from memory on an error: each
      // one's key is looked for in the cluster afterwards, so a script that failed is seen.
      const buckets = new RedisTokenBuckets(redis, { commandTimeoutMs: 2_000 });
      const rule = { capacity: 5, perSecond: 0.01 };
      expect((await buckets.take("client-a", rule)).remaining).toBe(4);
      expect((await buckets.take("client-a", rule)).remaining).toBe(3);
      // Three tokens and the refill since the first take.
      expect(Math.floor(Number(await redis.hget("rate-limit:client-a", "tokens")))).toBe(3);

      const limiter = new RedisRateLimiter(redis, { commandTimeoutMs: 2_000 });
      const first = await limiter.acquire("nominatim", 40, 5_000);
      const second = await limiter.acquire("nominatim", 40, 5_000);
      expect(second.at - first.at).toBeGreaterThanOrEqual(40);
      expect(Number(await redis.get("rate-limit:nominatim"))).toBe(second.at + 40);

      const health = new RedisHealthStore(redis, { commandTimeoutMs: 2_000 });
      const failed = { ...healthyState, failures: 1, lastFailure: "timeout" as const };
      expect(await health.update("here", () => ({ state: failed, result: "written" }), Date.now())).toBe("written");
      expect(await health.read("here")).toEqual(failed);
      expect(JSON.parse((await redis.get("provider-health:here"))!)).toEqual(failed);

      const links = new RedisLinkCache(redis);
      await links.set("abc", "https://example.com/a");
      await links.markMissing("gone");
      expect([await links.get("abc"), await links.get("gone"), await links.get("never")]).toEqual(["https://example.com/a", null, undefined]);

      await pingRedis(redis);

      const l1 = new RedisCacheLevel(redis);
      const answer = (n: number) => ({ addresses: [], provider: "nominatim", storedAt: n });
      const keys = Array.from({ length: 60 }, (_, n) => `reverse:${n}`);
      await l1.setMany(keys.map((key, n) => ({ key, answer: answer(n), ttlSeconds: n === 0 ? 0 : 60 })));
      const read = await l1.getMany([...keys, "reverse:absent"]);
      expect(read.size).toBe(59);
      expect(read.get("reverse:59")).toEqual(answer(59));
      expect(read.has("reverse:0")).toBe(false);
      // The batch's keys are on every primary: one MGET or pipeline could not have served them.
      const reverseKeys = [...(await keysByPrimary(`${prefix}reverse:`)).values()];
      expect(reverseKeys.map((onePrimary) => onePrimary.length > 0)).toEqual([true, true, true]);
      expect(reverseKeys.flat().length).toBe(59);
    } finally {
      redis.disconnect();
    }
  }, 30_000);
});

describe("a primary that hangs", () => {
  test("its keys fail (after the command timeout) while it hangs, a batch keeps the others' keys, and once its replica is promoted the client finds it (the slot map is asked again every 2 s)", async () => {
    const redis = await connectedClient("cluster-hang:");
    try {
      await redis.set("key", "before");
      const l1 = new RedisCacheLevel(redis);
      const keys = Array.from({ length: 30 }, (_, n) => `reverse:${n}`);
      await l1.setMany(keys.map((key, n) => ({ key, answer: { addresses: [], provider: "nominatim", storedAt: n }, ttlSeconds: 60 })));
      const hanging = await cluster.primaryOf("cluster-hang:key");
      const onOthers: string[] = [];
      for (const key of keys) if ((await cluster.primaryOf(`cluster-hang:${key}`)) !== hanging) onOthers.push(key);
      await cluster.inSync();
      // Stopped, not killed: its connections stay open, so no reset tells the client, and no MOVED either.
      cluster.pause(hanging);
      try {
        await expect(redis.get("key")).rejects.toThrow();
        // The batch's keys on the other primaries are read; the hung one's are misses, not the whole batch.
        expect([...(await l1.getMany(keys)).keys()].sort()).toEqual(onOthers.sort());
        await cluster.healthy(30_000);
        await waitFor("the client reading the key from the promoted replica", async () => (await redis.get("key").catch(() => null)) === "before", 15_000);
        expect(await cluster.primaryOf("cluster-hang:key")).not.toBe(hanging);
      } finally {
        cluster.resume(hanging);
      }
      // Back, the old primary sees the newer epoch and follows the promoted replica: the cluster is whole again.
      await cluster.healthy(30_000);
      expect(await cluster.primaries()).not.toContain(hanging);
    } finally {
      redis.disconnect();
    }
  }, 90_000);
});

describe("the three services on a Redis Cluster, a primary killed under load", () => {
  test("redirects and geocodes answer through the failover, every redirect is counted once, and the create limit's bucket survives it", async () => {
    // Each service is given two of the six nodes: the client finds the rest, and the cluster's slots, from them.
    const services = await startFailoverStack(stack, { REDIS_CLUSTER_NODES: cluster.nodeList.split(",").slice(0, 2).join(",") });
    let killed: number | undefined;
    const outcome = await loadThroughFailover(services, {
      replicated: () => cluster.inSync(),
      failOver: async () => {
        // The primary holding the gateway's create bucket.
        killed = [...(await keysByPrimary(`${failoverPrefixes.gateway}rate-limit:`)).entries()].find(([, keys]) => keys.length > 0)?.[0];
        expect(killed).toBeNumber();
        await cluster.kill(killed!);
        await cluster.healthy(30_000);
      },
    });
    // A third of the cluster's slots were down for about its node timeout (1 s) and the election: the
    // geocoder's L1 calls failed fast meanwhile and it went on answering, it did not wait out the outage.
    expect(outcome.geocodesDuringOutage).toBeGreaterThanOrEqual(10);

    // The geocoder's L1 is spread over the primaries, and every link has its cache key.
    const geocoderKeys = [...(await keysByPrimary(`${failoverPrefixes.geocoder}reverse:`)).values()];
    expect(geocoderKeys.filter((keys) => keys.length > 0).length).toBeGreaterThanOrEqual(2);
    const linkKeys = new Set([...(await keysByPrimary(`${failoverPrefixes.shortener}link:`)).values()].flat());
    expect(outcome.links.filter((link) => !linkKeys.has(`${failoverPrefixes.shortener}link:${link.code}`))).toEqual([]);
    console.log("Redis Cluster failover under load:", { ...outcome, links: outcome.links.length, killedPrimary: killed });
  }, 120_000);
});
