import { afterAll, describe, expect, test } from "bun:test";
import { silentLogger, type Logger } from "@linkgeo/shared";
import { deleteKeysWithPrefix, rejectionOf, startRedisProcess, testRedisUrl, uniqueRedisPrefix } from "@linkgeo/testing";
import Redis from "ioredis";
import { MemoryRateLimiter } from "../src/rate-limit/memory-rate-limiter.ts";
import { RateLimitExceeded, type RateLimiter, type RateSlot } from "../src/rate-limit/rate-limiter.ts";
import { RedisRateLimiter } from "../src/rate-limit/redis-rate-limiter.ts";

// Waiting for a slot is the behaviour under test. The spacing is checked on
// the slots' own clock, where it is exact; elapsed time is only ever a lower
// bound (a busy machine makes it longer, never shorter), and the tolerance
// covers timers and the loopback, never the interval.
const tolerance = 15;
//
// The cases run side by side: each waits on slots of keys of its own (`freshKey`; the cases of one engine
// share its limiter, which keeps keys apart), and does almost nothing while it waits.

const prefix = uniqueRedisPrefix("rate_limit");
const clients: Redis[] = [];
function client(url = testRedisUrl): Redis {
  const redis = new Redis(url, { keyPrefix: prefix });
  redis.on("error", () => {});
  clients.push(redis);
  return redis;
}
afterAll(async () => {
  for (const redis of clients) redis.disconnect();
  await deleteKeysWithPrefix(testRedisUrl, prefix);
});

let keys = 0;
const freshKey = () => `key-${++keys}`;

/**
 * Each acquisition with the moment it resolved, on the wall clock: the clock
 * of the slots' `at` (Date for the in-process limiter, Redis TIME for the
 * shared one, and the test's Redis runs on this host). A slot that resolves
 * late, because the machine is busy, still passes; one that resolves before
 * its `at` cannot, whatever the timers do.
 */
async function timed(acquisition: Promise<RateSlot>): Promise<RateSlot & { resolvedAt: number }> {
  const slot = await acquisition;
  return { ...slot, resolvedAt: Date.now() };
}

/** Every slot was waited for: none resolved before it started. */
function expectEachWaitedFor(slots: Array<RateSlot & { resolvedAt: number }>) {
  for (const slot of slots) expect(slot.resolvedAt).toBeGreaterThanOrEqual(slot.at);
}

const gaps = (values: number[]) => values.toSorted((a, b) => a - b).flatMap((value, i, all) => (i === 0 ? [] : [value - all[i - 1]!]));

describe.concurrent.each([
  ["memory", () => new MemoryRateLimiter()],
  ["redis", () => new RedisRateLimiter(client())],
] as Array<[string, () => RateLimiter]>)("rate limiter on %s", (_, make) => {
  const limiter = make();

  test("grants the first slot of a key at once", async () => {
    const started = performance.now();
    const slot = await limiter.acquire(freshKey(), 1_000, 0);
    expect(slot.waitedMs).toBe(0);
    // Waiting for a slot would take the interval; a busy process may take a tenth of it on its own.
    expect(performance.now() - started).toBeLessThan(1_000 / 2);
  });

  test("spaces the slots of one key by the interval, in order of arrival", async () => {
    const key = freshKey();
    const started = performance.now();
    const slots = await Promise.all(Array.from({ length: 5 }, () => timed(limiter.acquire(key, 100, 1_000))));
    // In order of arrival: the i-th caller got the i-th slot.
    expect(slots.map((slot) => slot.at - slots[0]!.at)).toEqual([0, 100, 200, 300, 400]);
    // Not the gaps between resolutions: under load one slot resolves late and
    // the next gap shrinks, though no request went early.
    expectEachWaitedFor(slots);
    slots.forEach((slot, i) => {
      expect(slot.waitedMs).toBeLessThanOrEqual(100 * i);
      expect(slot.waitedMs).toBeGreaterThanOrEqual(100 * i - tolerance);
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(400 - tolerance);
  });

  test("keeps keys apart", async () => {
    const [a, b] = [freshKey(), freshKey()];
    await limiter.acquire(a, 10_000, 0);
    expect((await limiter.acquire(b, 10_000, 0)).waitedMs).toBe(0);
  });

  test("rejects at once, taking nothing, when the wait would exceed maxWaitMs", async () => {
    const key = freshKey();
    // Slots 10 s apart: no stall of a busy machine brings the next one within the 5 s a caller may wait.
    const first = await limiter.acquire(key, 10_000, 0);
    const started = performance.now();
    const error = await rejectionOf(limiter.acquire(key, 10_000, 5_000));
    // Well within the 5 s it may wait, which a limiter that waits and then gives up would use.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(RateLimitExceeded);
    expect((error as RateLimitExceeded).freeAt).toEqual(new Date(first.at + 10_000));
    // The rejected caller took nothing: the next slot is still the one it was refused (not the one after).
    const again = await rejectionOf(limiter.acquire(key, 10_000, 0));
    expect((again as RateLimitExceeded).freeAt).toEqual(new Date(first.at + 10_000));
  });

  test("stops waiting when the signal aborts, with its reason", async () => {
    const key = freshKey();
    await limiter.acquire(key, 10_000, 0);
    const controller = new AbortController();
    const pending = rejectionOf(limiter.acquire(key, 10_000, 20_000, controller.signal));
    controller.abort(new Error("caller gone"));
    expect(await pending).toEqual(new Error("caller gone"));
  });
});

describe.concurrent("rate limiter on Redis, shared by replicas", () => {
  test("two limiters on two clients never grant slots of one key closer than the interval", async () => {
    const key = freshKey();
    const replicas = [new RedisRateLimiter(client()), new RedisRateLimiter(client())];
    const started = performance.now();
    const slots = await Promise.all(Array.from({ length: 12 }, (_, i) => timed(replicas[i % 2]!.acquire(key, 60, 5_000))));
    // On the Redis clock the spacing is exact, and no slot was used before it started.
    for (const gap of gaps(slots.map((slot) => slot.at))) expect(gap).toBe(60);
    expectEachWaitedFor(slots);
    expect(performance.now() - started).toBeGreaterThanOrEqual(11 * 60 - tolerance);
  });

  test("keeps one key per limit under the client's prefix, gone once its interval is over", async () => {
    const key = freshKey();
    const redis = client();
    await new RedisRateLimiter(redis).acquire(key, 5_000, 0);
    const ttl = await redis.pttl(`rate-limit:${key}`);
    expect(ttl).toBeGreaterThan(4_000);
    expect(ttl).toBeLessThanOrEqual(5_000);
  });
});

describe.concurrent("rate limiter on Redis, when Redis is unreachable", () => {
  const capture = () => {
    const lines: string[] = [];
    const log: Logger = { ...silentLogger, warn: (message) => lines.push(`warn ${message}`), info: (message) => lines.push(`info ${message}`) };
    return { lines, log };
  };

  test("falls back to limiting in-process at once when Redis dies, and warns once", async () => {
    await using server = await startRedisProcess();
    const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
    redis.on("error", () => {});
    try {
      const { lines, log } = capture();
      const limiter = new RedisRateLimiter(redis, { log });
      const key = freshKey();
      await limiter.acquire(key, 200, 0);
      await server.kill();

      const started = performance.now();
      const slots = [await timed(limiter.acquire(key, 200, 1_000)), await timed(limiter.acquire(key, 200, 1_000))];
      expect(slots[1]!.at - slots[0]!.at).toBe(200);
      expectEachWaitedFor(slots);
      expect(await rejectionOf(limiter.acquire(key, 200, 50))).toBeInstanceOf(RateLimitExceeded);
      expect(performance.now() - started).toBeLessThan(1_500);
      expect(lines).toEqual(["warn Redis unavailable: rate limits hold per process only"]);
    } finally {
      redis.disconnect();
    }
  });

  test("can widen the interval on the fallback, to hold the limit across replicas", async () => {
    const redis = new Redis({ host: "127.0.0.1", port: 1, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    redis.on("error", () => {});
    try {
      const limiter = new RedisRateLimiter(redis, { fallbackIntervalFactor: 3 });
      const key = freshKey();
      const first = await limiter.acquire(key, 100, 0);
      const second = await limiter.acquire(key, 100, 1_000);
      expect(second.at - first.at).toBe(300);
      // Waited out the widened interval, counted from the first slot: the time spent finding Redis down
      // (longer on a busy machine) is part of the wait, so the second's own waitedMs may be less than 300.
      expect(Date.now() - first.at).toBeGreaterThanOrEqual(300 - tolerance);
    } finally {
      redis.disconnect();
    }
  });
});
