import { afterAll, describe, expect, test } from "bun:test";
import { silentLogger } from "@linkgeo/shared";
import { deleteKeysWithPrefix, startRedisProcess, testRedisUrl, uniqueRedisPrefix } from "@linkgeo/testing";
import Redis from "ioredis";
import { FailSoftLinkCache } from "../src/cache/fail-soft-link-cache.ts";
import type { LinkCache } from "../src/cache/link-cache.ts";
import { MemoryLinkCache } from "../src/cache/memory-link-cache.ts";
import { RedisLinkCache } from "../src/cache/redis-link-cache.ts";

const prefix = uniqueRedisPrefix("cache");
const redis = new Redis(testRedisUrl, { keyPrefix: prefix });
afterAll(async () => {
  redis.disconnect();
  await deleteKeysWithPrefix(testRedisUrl, prefix);
});

describe.each([
  ["memory", () => new MemoryLinkCache()],
  ["redis", () => new RedisLinkCache(redis)],
] as Array<[string, () => LinkCache]>)("link cache on %s", (_, make) => {
  const cache = make();

  test("returns undefined for what it never saw, and what it was given", async () => {
    expect(await cache.get("c-unseen")).toBeUndefined();
    await cache.set("c-set", "https://example.com/");
    expect(await cache.get("c-set")).toBe("https://example.com/");
  });

  test("a miss is remembered as null, but never over a cached URL", async () => {
    await cache.markMissing("c-miss");
    expect(await cache.get("c-miss")).toBeNull();
    await cache.set("c-kept", "https://example.com/kept");
    await cache.markMissing("c-kept");
    expect(await cache.get("c-kept")).toBe("https://example.com/kept");
  });

  test("fill writes only where nothing is cached: never over a newer URL or a deleted link", async () => {
    await cache.fill("c-fill", "https://example.com/read");
    expect(await cache.get("c-fill")).toBe("https://example.com/read");
    await cache.set("c-newer", "https://example.com/written");
    await cache.fill("c-newer", "https://example.com/read-before-the-write");
    expect(await cache.get("c-newer")).toBe("https://example.com/written");
    await cache.markDeleted("c-gone");
    await cache.fill("c-gone", "https://example.com/read-before-the-delete");
    expect(await cache.get("c-gone")).toBeNull();
  });

  test("markDeleted leaves a tombstone over a cached URL, which a new link's set replaces", async () => {
    await cache.set("c-del", "https://example.com/old");
    await cache.markDeleted("c-del");
    expect(await cache.get("c-del")).toBeNull();
    await cache.set("c-del", "https://example.com/recreated");
    expect(await cache.get("c-del")).toBe("https://example.com/recreated");
  });

  test("set replaces a remembered miss; forget drops either", async () => {
    await cache.markMissing("c-late");
    await cache.set("c-late", "https://example.com/late");
    expect(await cache.get("c-late")).toBe("https://example.com/late");
    await cache.forget("c-late");
    expect(await cache.get("c-late")).toBeUndefined();
  });
});

describe("memory link cache", () => {
  test("expires entries and stays within its bound, oldest out first", async () => {
    let now = 0;
    const cache = new MemoryLinkCache(2, () => now);
    await cache.markMissing("a");
    now = 29_000;
    expect(await cache.get("a")).toBeNull();
    now = 30_000;
    expect(await cache.get("a")).toBeUndefined();
    await cache.set("x", "https://x.example/");
    await cache.set("y", "https://y.example/");
    await cache.set("z", "https://z.example/");
    expect([await cache.get("x"), await cache.get("y"), await cache.get("z")]).toEqual([undefined, "https://y.example/", "https://z.example/"]);
  });
});

describe("fail-soft cache", () => {
  test("turns a dead Redis into misses and skipped writes, at once", async () => {
    await using server = await startRedisProcess();
    const client = new Redis(server.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 });
    client.on("error", () => {});
    await new Promise((resolve) => client.once("ready", resolve));
    const warnings: string[] = [];
    const cache = new FailSoftLinkCache(new RedisLinkCache(client), { ...silentLogger, warn: (message) => warnings.push(message) });
    await cache.set("k", "https://example.com/");
    expect(await cache.get("k")).toBe("https://example.com/");
    await server.kill();
    const started = performance.now();
    expect(await cache.get("k")).toBeUndefined();
    await cache.set("k", "https://example.com/other");
    await cache.fill("k", "https://example.com/other");
    await cache.markDeleted("k");
    await cache.forget("k");
    expect(performance.now() - started).toBeLessThan(2000);
    expect(warnings).toEqual(["cache unavailable, using the database alone"]);
    client.disconnect();
  });
});
