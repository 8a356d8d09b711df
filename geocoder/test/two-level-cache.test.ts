import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { silentLogger, type LogFields, type Logger } from "@linkgeo/shared";
import { startRedisProcess } from "@linkgeo/testing";
import Redis from "ioredis";
import type { Address } from "../src/addresses/address.ts";
import type { CachedAnswer, CacheLevel } from "../src/cache/cached-answer.ts";
import { FailSoftCacheLevel } from "../src/cache/fail-soft-cache-level.ts";
import { MemoryCacheLevel } from "../src/cache/memory-cache-level.ts";
import { RedisCacheLevel } from "../src/cache/redis-cache-level.ts";
import { SqliteCacheLevel } from "../src/cache/sqlite-cache-level.ts";
import { defaultCacheTtls, TwoLevelCache } from "../src/cache/two-level-cache.ts";

const second = 1000;
const hour = 60 * 60 * second;
const day = 24 * hour;
const t0 = Date.parse("2026-11-22T07:09:09.291Z");

const place: Address = {
  formatted_address: "Stephansplatz 1, 1010 Wien, Österreich",
  postcode: "1010",
  country: "Austria",
  country_code: "AT",
  state: "Wien",
  district: "Innere Stadt",
  settlement: "Wien",
  street: "Stephansplatz",
  house: "1",
};

const found = (storedAt: number): CachedAnswer => ({ provider: "HERE", storedAt, addresses: [place] });
const nothing = (storedAt: number): CachedAnswer => ({ provider: "NOMINATIM", storedAt, addresses: [] });
/** LOCAL's answer given because the network providers failed. */
const fallback = (storedAt: number, addresses: Address[] = [place]): CachedAnswer => ({ provider: "LOCAL", storedAt, addresses, fallback: true });
const minute = 60 * second;

/** Memory L1 and SQLite L2 on one clock the test moves. */
function setup(ttls: ConstructorParameters<typeof TwoLevelCache>[0]["ttls"] = {}) {
  let now = t0;
  const clock = () => now;
  const db = new Database(":memory:");
  const l1 = new MemoryCacheLevel({ now: clock });
  const l2 = new SqliteCacheLevel(db, { now: clock });
  const cache = new TwoLevelCache({ l1, l2, now: clock, ttls });
  return {
    cache,
    l1,
    l2,
    db,
    at: (ms: number) => void (now = ms),
    [Symbol.dispose]: () => db.close(),
  };
}

/** A logger that keeps its warnings. */
function recordingLogger(): Logger & { warnings: Array<LogFields & { message: string }> } {
  const warnings: Array<LogFields & { message: string }> = [];
  return { ...silentLogger, warn: (message, fields) => warnings.push({ message, ...fields }), warnings };
}

const failing: CacheLevel = {
  get: () => Promise.reject(new Error("connection refused")),
  getMany: () => Promise.reject(new Error("connection refused")),
  setMany: () => Promise.reject(new Error("connection refused")),
  set: () => Promise.reject(new Error("connection refused")),
  ping: () => Promise.reject(new Error("connection refused")),
};

describe("two-level cache", () => {
  test("has the documented defaults", () => {
    using s = setup();
    expect(s.cache.ttls).toEqual({ l1Seconds: 86_400, l1EmptySeconds: 3_600, l2Days: 30, l2EmptySeconds: 86_400, fallbackSeconds: 300 });
    expect(defaultCacheTtls).toEqual(s.cache.ttls);
  });

  test("misses when neither level has the key", async () => {
    using s = setup();
    expect(await s.cache.get("k")).toBeUndefined();
    expect([await s.l1.get("k"), await s.l2.get("k")]).toEqual([undefined, undefined]);
  });

  test("set writes both levels; get answers from L1", async () => {
    using s = setup();
    await s.cache.set("k", found(t0));
    expect([await s.l1.get("k"), await s.l2.get("k")]).toEqual([found(t0), found(t0)]);
    expect(await s.cache.get("k")).toEqual({ answer: found(t0), level: "L1" });
  });

  test("an L2 hit is answered and promoted into L1", async () => {
    using s = setup();
    await s.l2.set("k", found(t0), 30 * 86_400);
    expect(await s.cache.get("k")).toEqual({ answer: found(t0), level: "L2" });
    expect(await s.l1.get("k")).toEqual(found(t0));
    expect(await s.cache.get("k")).toEqual({ answer: found(t0), level: "L1" });
  });

  test("getMany reads L1 once for every key and L2 once for the rest, promoting L2's hits as get does", async () => {
    using s = setup();
    await s.cache.set("both", found(t0));
    await s.l2.set("second-only", nothing(t0), 86_400);
    // A fallback an hour old in L2: promoted, but never past its own five minutes.
    await s.l2.set("old-fallback", fallback(t0 - hour), 86_400);
    const reads: string[] = [];
    const spy = (level: CacheLevel, name: string): CacheLevel => ({
      get: (key) => level.get(key),
      getMany: (keys) => {
        reads.push(`${name}:${keys.join(",")}`);
        return level.getMany(keys);
      },
      set: (key, answer, ttl) => level.set(key, answer, ttl),
      setMany: (entries) => level.setMany(entries),
      ping: () => level.ping(),
    });
    const cache = new TwoLevelCache({ l1: spy(s.l1, "L1"), l2: spy(s.l2, "L2"), now: () => t0 });
    const hits = await cache.getMany(["both", "second-only", "nowhere", "old-fallback"]);
    expect(hits).toEqual(
      new Map([
        ["both", { answer: found(t0), level: "L1" }],
        ["second-only", { answer: nothing(t0), level: "L2" }],
        ["old-fallback", { answer: fallback(t0 - hour), level: "L2" }],
      ]),
    );
    expect(reads).toEqual(["L1:both,second-only,nowhere,old-fallback", "L2:second-only,nowhere,old-fallback"]);
    expect(await s.l1.get("second-only")).toEqual(nothing(t0));
    expect(await s.l1.get("old-fallback")).toBeUndefined();
    expect(await cache.getMany([])).toEqual(new Map());
  });

  test("setMany writes both levels with each answer's own lifetimes, as set does", async () => {
    using s = setup();
    await s.cache.setMany(
      new Map([
        ["found", found(t0)],
        ["nothing", nothing(t0)],
        ["stale-fallback", fallback(t0 - hour)],
      ]),
    );
    expect([await s.l1.get("found"), await s.l2.get("found"), await s.l2.get("nothing")]).toEqual([found(t0), found(t0), nothing(t0)]);
    // A fallback past its five minutes is kept in neither.
    expect([await s.l1.get("stale-fallback"), await s.l2.get("stale-fallback")]).toEqual([undefined, undefined]);
    s.at(t0 + hour);
    expect([await s.l1.get("found"), await s.l1.get("nothing"), await s.l2.get("nothing")]).toEqual([found(t0), undefined, nothing(t0)]);
  });

  test("an answer with addresses lives 24 h in L1 and 30 days in L2", async () => {
    using s = setup();
    await s.cache.set("k", found(t0));
    s.at(t0 + day - 1);
    expect(await s.l1.get("k")).toEqual(found(t0));
    s.at(t0 + day);
    expect(await s.l1.get("k")).toBeUndefined();
    s.at(t0 + 30 * day - 1);
    expect(await s.l2.get("k")).toEqual(found(t0));
    s.at(t0 + 30 * day);
    expect(await s.l2.get("k")).toBeUndefined();
    expect(await s.cache.get("k")).toBeUndefined();
  });

  test("an empty answer lives 1 h in L1 and 1 day in L2", async () => {
    using s = setup();
    await s.cache.set("k", nothing(t0));
    s.at(t0 + hour - 1);
    expect(await s.cache.get("k")).toEqual({ answer: nothing(t0), level: "L1" });
    s.at(t0 + hour);
    expect(await s.l1.get("k")).toBeUndefined();
    s.at(t0 + day - 1);
    expect(await s.l2.get("k")).toEqual(nothing(t0));
    s.at(t0 + day);
    expect(await s.cache.get("k")).toBeUndefined();
  });

  test("a promoted answer stays in L1 for the L1 TTL when L2 keeps it longer", async () => {
    using s = setup();
    await s.cache.set("k", found(t0));
    const hit = t0 + 10 * day;
    s.at(hit);
    expect(await s.cache.get("k")).toEqual({ answer: found(t0), level: "L2" });
    s.at(hit + day - 1);
    expect(await s.l1.get("k")).toEqual(found(t0));
    s.at(hit + day);
    expect(await s.l1.get("k")).toBeUndefined();
  });

  test("a promoted empty answer gets the empty L1 TTL", async () => {
    using s = setup();
    await s.cache.set("k", nothing(t0));
    const hit = t0 + 2 * hour;
    s.at(hit);
    expect(await s.cache.get("k")).toEqual({ answer: nothing(t0), level: "L2" });
    s.at(hit + hour - 1);
    expect(await s.l1.get("k")).toEqual(nothing(t0));
    s.at(hit + hour);
    expect(await s.l1.get("k")).toBeUndefined();
  });

  test("a promoted answer never outlives its L2 entry", async () => {
    using s = setup();
    await s.cache.set("k", found(t0));
    const hit = t0 + 30 * day - hour;
    s.at(hit);
    expect(await s.cache.get("k")).toEqual({ answer: found(t0), level: "L2" });
    s.at(t0 + 30 * day - 1);
    expect(await s.cache.get("k")).toEqual({ answer: found(t0), level: "L1" });
    s.at(t0 + 30 * day);
    expect(await s.l1.get("k")).toBeUndefined();
    expect(await s.cache.get("k")).toBeUndefined();
  });

  test("lifetimes count from when the provider answered", async () => {
    using s = setup();
    s.at(t0 + 23 * hour);
    await s.cache.set("k", found(t0));
    s.at(t0 + day - 1);
    expect(await s.l1.get("k")).toEqual(found(t0));
    s.at(t0 + day);
    expect(await s.l1.get("k")).toBeUndefined();
    expect(await s.cache.get("k")).toEqual({ answer: found(t0), level: "L2" });
  });

  test("a fallback answer lives 5 minutes in both levels", async () => {
    using s = setup();
    await s.cache.set("k", fallback(t0));
    s.at(t0 + 5 * minute - 1);
    expect([await s.l1.get("k"), await s.l2.get("k")]).toEqual([fallback(t0), fallback(t0)]);
    s.at(t0 + 5 * minute);
    expect([await s.l1.get("k"), await s.l2.get("k")]).toEqual([undefined, undefined]);
    expect(await s.cache.get("k")).toBeUndefined();
  });

  test("an answer marked fallback: false lives as long as any other", async () => {
    using s = setup();
    const real = { ...found(t0), fallback: false };
    await s.cache.set("k", real);
    s.at(t0 + day - 1);
    expect(await s.cache.get("k")).toEqual({ answer: real, level: "L1" });
  });

  test("an empty fallback answer (LOCAL at sea) gets the shorter of the two lifetimes", async () => {
    using s = setup({ fallbackSeconds: (2 * hour) / second });
    await s.cache.set("k", fallback(t0, []));
    s.at(t0 + hour - 1);
    expect(await s.l1.get("k")).toEqual(fallback(t0, []));
    s.at(t0 + hour);
    // L1's empty lifetime (1 h) is the shorter there; in L2 the fallback's 2 h are.
    expect([await s.l1.get("k"), await s.l2.get("k")]).toEqual([undefined, fallback(t0, [])]);
    s.at(t0 + 2 * hour);
    expect(await s.l2.get("k")).toBeUndefined();
  });

  test("a fallback answer promoted from L2 keeps its short life in L1", async () => {
    using s = setup();
    await s.cache.set("k", fallback(t0));
    // L1 lost it (Redis restarted): the next read finds it in L2.
    await s.l1.set("k", fallback(t0), 0);
    s.at(t0 + 2 * minute);
    expect(await s.cache.get("k")).toEqual({ answer: fallback(t0), level: "L2" });
    s.at(t0 + 5 * minute - 1);
    expect(await s.cache.get("k")).toEqual({ answer: fallback(t0), level: "L1" });
    s.at(t0 + 5 * minute);
    expect(await s.l1.get("k")).toBeUndefined();
  });

  test("takes its TTLs from options", async () => {
    using s = setup({ l1Seconds: 60, l2Days: 2, l1EmptySeconds: 10, l2EmptySeconds: 20 });
    await s.cache.set("found", found(t0));
    await s.cache.set("nothing", nothing(t0));
    s.at(t0 + 10 * second);
    expect([await s.l1.get("found"), await s.l1.get("nothing")]).toEqual([found(t0), undefined]);
    s.at(t0 + 20 * second);
    expect([await s.l2.get("found"), await s.l2.get("nothing")]).toEqual([found(t0), undefined]);
    s.at(t0 + 60 * second);
    expect(await s.l1.get("found")).toBeUndefined();
    s.at(t0 + 2 * day);
    expect(await s.l2.get("found")).toBeUndefined();
  });

  test.each([
    ["l1Seconds: 0", { l1Seconds: 0 }],
    ["l2Days: -1", { l2Days: -1 }],
    ["l1EmptySeconds: NaN", { l1EmptySeconds: Number.NaN }],
    ["l2EmptySeconds: Infinity", { l2EmptySeconds: Number.POSITIVE_INFINITY }],
    ["fallbackSeconds: 0", { fallbackSeconds: 0 }],
  ])("refuses the TTL option %s", (_, ttls) => {
    expect(() => new TwoLevelCache({ l1: new MemoryCacheLevel(), l2: new MemoryCacheLevel(), ttls })).toThrow(RangeError);
  });

  test("a write that fails in one level still reaches the other", async () => {
    const l2 = new MemoryCacheLevel();
    const cache = new TwoLevelCache({ l1: failing, l2 });
    const answer = found(Date.now());
    await expect(cache.set("k", answer)).rejects.toThrow("connection refused");
    expect(await l2.get("k")).toEqual(answer);
  });
});

describe("L2 pruning", () => {
  test("prune deletes the expired rows only, and reports how many", async () => {
    using s = setup();
    await s.cache.set("empty-1", nothing(t0));
    await s.cache.set("empty-2", nothing(t0 - hour));
    await s.cache.set("found-old", found(t0 - 29 * day));
    await s.cache.set("found-new", found(t0));
    s.at(t0 + day + hour);
    expect(s.l2.prune()).toBe(3);
    expect(s.db.query("SELECT key FROM reverse_cache ORDER BY key").all()).toEqual([{ key: "found-new" }]);
    expect(await s.cache.get("found-new")).toEqual({ answer: found(t0), level: "L2" });
    expect(s.l2.prune()).toBe(0);
  });

  test("the first write after each prune interval prunes by itself", async () => {
    const db = new Database(":memory:");
    let now = 0;
    const level = new SqliteCacheLevel(db, { now: () => now, pruneIntervalMs: 60_000 });
    const rows = () => db.query("SELECT key FROM reverse_cache ORDER BY key").all();
    await level.set("a", found(0), 10); // the first write prunes (nothing yet) at t=0
    now = 20_000;
    await level.set("b", found(0), 3600); // within the interval: "a" stays, though expired
    expect(rows()).toEqual([{ key: "a" }, { key: "b" }]);
    expect(await level.get("a")).toBeUndefined();
    now = 60_000;
    await level.set("c", found(0), 3600); // the interval has passed: "a" goes
    expect(rows()).toEqual([{ key: "b" }, { key: "c" }]);
    db.close();
  });
});

describe("fail-soft cache level", () => {
  test("turns errors into misses and skipped writes, warning at most every 10 s", async () => {
    let now = t0;
    const log = recordingLogger();
    const level = new FailSoftCacheLevel(failing, { name: "L1", log, now: () => now });
    expect(await level.get("k")).toBeUndefined();
    await level.set("k", found(t0), 60);
    now = t0 + 10 * second - 1;
    expect(await level.get("k")).toBeUndefined();
    now = t0 + 10 * second;
    await level.set("k", found(t0), 60);
    expect(log.warnings).toEqual([
      { message: "cache level unavailable, answering without it", cache_level: "L1", operation: "get", error: "Error: connection refused" },
      { message: "cache level unavailable, answering without it", cache_level: "L1", operation: "set", error: "Error: connection refused" },
    ]);
  });

  test("passes ping through, so readiness sees the failure", async () => {
    const level = new FailSoftCacheLevel(failing, { name: "L1", log: silentLogger });
    await expect(level.ping()).rejects.toThrow("connection refused");
  });

  test("passes answers through unchanged", async () => {
    const level = new FailSoftCacheLevel(new MemoryCacheLevel(), { name: "L1", log: silentLogger });
    await level.set("k", found(t0), 60);
    expect(await level.get("k")).toEqual(found(t0));
  });
});

describe("two-level cache whose Redis dies", () => {
  test("keeps reading and writing L2, failing fast on L1", async () => {
    await using redisProcess = await startRedisProcess();
    // The client main.ts builds: no offline queue, one retry, a command timeout.
    const client = new Redis(redisProcess.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 });
    client.on("error", () => {}); // reported, throttled, by FailSoftCacheLevel
    await new Promise((resolve) => client.once("ready", resolve));
    const log = recordingLogger();
    const l1 = new FailSoftCacheLevel(new RedisCacheLevel(client), { name: "L1", log });
    const db = new Database(":memory:");
    const cache = new TwoLevelCache({ l1, l2: new SqliteCacheLevel(db) });

    const before = found(Date.now());
    await cache.set("before", before);
    expect(await cache.get("before")).toEqual({ answer: before, level: "L1" });
    expect(await client.pttl("before")).toBeWithin(day - 60 * second, day + 1);

    await redisProcess.kill();

    const started = performance.now();
    expect(await cache.get("before")).toEqual({ answer: before, level: "L2" });
    const during = nothing(Date.now());
    await cache.set("during", during);
    expect(await cache.get("during")).toEqual({ answer: during, level: "L2" });
    expect(await cache.get("never")).toBeUndefined();
    // Each of the 7 Redis commands above is bounded by the 500 ms timeout;
    // with the connection known dead they fail at once.
    expect(performance.now() - started).toBeLessThan(2_000);

    expect(log.warnings).toEqual([
      { message: "cache level unavailable, answering without it", cache_level: "L1", operation: "get", error: expect.any(String) },
    ]);
    await expect(l1.ping()).rejects.toThrow();

    client.disconnect();
    db.close();
  });
});
