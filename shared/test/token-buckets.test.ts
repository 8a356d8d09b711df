import { afterAll, describe, expect, test } from "bun:test";
import { createRedisClient, silentLogger, type Logger } from "@linkgeo/shared";
import { deleteKeysWithPrefix, startRedisProcess, testRedisUrl, uniqueRedisPrefix, waitFor } from "@linkgeo/testing";
import Redis from "ioredis";
import type { RateRule } from "@linkgeo/shared/rate-limit";
import { MemoryTokenBuckets } from "@linkgeo/shared/rate-limit";
import { RedisTokenBuckets } from "@linkgeo/shared/rate-limit";
import type { BucketDecision, TokenBuckets } from "@linkgeo/shared/rate-limit";

const prefix = uniqueRedisPrefix("gateway_buckets");
const clients: Redis[] = [];
function client(): Redis {
  const redis = new Redis(testRedisUrl, { keyPrefix: prefix });
  redis.on("error", () => {});
  clients.push(redis);
  return redis;
}
afterAll(async () => {
  for (const redis of clients) redis.disconnect();
  await deleteKeysWithPrefix(testRedisUrl, prefix);
});

let keys = 0;
const freshKey = () => `client-${++keys}`;

/** A slow refill, so that real time passing during a test changes no whole number. */
const oneEveryTenSeconds = (capacity: number): RateRule => ({ capacity, perSecond: 0.1 });

const allowed = (remaining: number, limit: number, resetSeconds: number): BucketDecision => ({
  allowed: true,
  limit,
  remaining,
  resetSeconds,
  retryAfterSeconds: 0,
});
const refused = (limit: number, resetSeconds: number, retryAfterSeconds: number): BucketDecision => ({
  allowed: false,
  limit,
  remaining: 0,
  resetSeconds,
  retryAfterSeconds,
});

async function takeTimes(buckets: TokenBuckets, key: string, rule: RateRule, times: number): Promise<BucketDecision[]> {
  const decisions: BucketDecision[] = [];
  for (let i = 0; i < times; i++) decisions.push(await buckets.take(key, rule));
  return decisions;
}

interface Harness {
  buckets: TokenBuckets;
  /** The buckets' clock, in ms. */
  now: () => number;
  /** Lets time pass a little: moves a fake clock; real time passes by itself. */
  tick: () => void;
}

function memoryHarness(): Harness {
  let clock = 0;
  return { buckets: new MemoryTokenBuckets({ now: () => clock }), now: () => clock, tick: () => (clock += 20) };
}

// Where Redis is the point of a test, falling back to memory must fail it rather than pass unnoticed.
const noFallback: TokenBuckets = {
  take: async () => {
    throw new Error("the Redis buckets fell back to memory");
  },
  peek: async () => {
    throw new Error("the Redis buckets fell back to memory");
  },
};

function redisHarness(): Harness {
  return { buckets: new RedisTokenBuckets(client(), { fallback: noFallback }), now: () => performance.now(), tick: () => {} };
}

describe.each([
  ["memory", memoryHarness],
  ["redis", redisHarness],
] as Array<[string, () => Harness]>)("token buckets in %s", (_, makeHarness) => {
  const { buckets, now, tick } = makeHarness();

  test("allows a burst of the capacity, then refuses", async () => {
    const rule = oneEveryTenSeconds(3);
    expect(await takeTimes(buckets, freshKey(), rule, 5)).toEqual([
      allowed(2, 3, 10),
      allowed(1, 3, 20),
      allowed(0, 3, 30),
      refused(3, 30, 10),
      refused(3, 30, 10),
    ]);
  });

  test("announces whole seconds for a rate that is not exact in binary (20/min)", async () => {
    const perMinute: RateRule = { capacity: 20, perSecond: 20 / 60 };
    const decisions = await takeTimes(buckets, freshKey(), perMinute, 21);
    expect(decisions[0]).toEqual(allowed(19, 20, 3));
    expect(decisions[19]).toEqual(allowed(0, 20, 60));
    expect(decisions[20]).toEqual(refused(20, 60, 3));
  });

  test("refills at the rule's rate, and a refused take takes nothing", async () => {
    const fivePerSecond: RateRule = { capacity: 2, perSecond: 5 };
    const key = freshKey();
    await takeTimes(buckets, key, fivePerSecond, 2);
    const refusedAt = now();
    expect(await buckets.take(key, fivePerSecond)).toEqual(refused(2, 1, 1));

    // Polls with refused takes: were they taking anything, the token would never come.
    let decision: BucketDecision | undefined;
    await waitFor(
      "a token back",
      async () => {
        tick();
        decision = await buckets.take(key, fivePerSecond);
        return decision.allowed;
      },
      3_000,
    );
    expect(decision).toEqual(allowed(0, 2, 1));
    // One token takes 200 ms; the slack covers the Redis clock against this process's.
    expect(now() - refusedAt).toBeGreaterThanOrEqual(190);
  });

  test("a peek reports the level and takes nothing; a missing bucket is full", async () => {
    const rule = oneEveryTenSeconds(2);
    const key = freshKey();
    expect(await buckets.peek(key, rule)).toEqual(allowed(2, 2, 0));
    expect(await buckets.peek(key, rule)).toEqual(allowed(2, 2, 0));
    await takeTimes(buckets, key, rule, 1);
    expect(await buckets.peek(key, rule)).toEqual(allowed(1, 2, 10));
    await takeTimes(buckets, key, rule, 1);
    expect([await buckets.peek(key, rule), await buckets.peek(key, rule)]).toEqual([refused(2, 20, 10), refused(2, 20, 10)]);
  });

  test("a take of many tokens takes them all or none, and says how long until all of them are there", async () => {
    const rule = oneEveryTenSeconds(10);
    const key = freshKey();
    expect(await buckets.take(key, rule, 7)).toEqual(allowed(3, 10, 70));
    // 5 asked, 3 there: refused, nothing taken, 2 more tokens (20 s) to wait for.
    expect(await buckets.take(key, rule, 5)).toEqual(refused(10, 70, 20));
    expect(await buckets.take(key, rule, 3)).toEqual(allowed(0, 10, 100));
    // More than the bucket can ever hold is refused, however long one waits.
    expect((await buckets.take(freshKey(), rule, 11)).allowed).toBe(false);
  });

  test("keeps keys apart", async () => {
    const rule = oneEveryTenSeconds(1);
    const [a, b] = [freshKey(), freshKey()];
    expect(await takeTimes(buckets, a, rule, 2)).toEqual([allowed(0, 1, 10), refused(1, 10, 10)]);
    expect(await buckets.take(b, rule)).toEqual(allowed(0, 1, 10));
  });

  test("concurrent takes never spend more than the bucket holds", async () => {
    const rule = oneEveryTenSeconds(5);
    const key = freshKey();
    const decisions = await Promise.all(Array.from({ length: 12 }, () => buckets.take(key, rule)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(5);
    expect(
      decisions
        .filter((decision) => decision.allowed)
        .map((decision) => decision.remaining)
        .toSorted(),
    ).toEqual([0, 1, 2, 3, 4]);
  });
});

describe("token buckets in Redis, shared by gateway replicas", () => {
  test("two replicas on two connections draw on one budget per key", async () => {
    const replicas = [new RedisTokenBuckets(client(), { fallback: noFallback }), new RedisTokenBuckets(client(), { fallback: noFallback })];
    const rule = oneEveryTenSeconds(4);
    const key = freshKey();
    const decisions: BucketDecision[] = [];
    for (let i = 0; i < 6; i++) decisions.push(await replicas[i % 2]!.take(key, rule));
    expect(decisions).toEqual([allowed(3, 4, 10), allowed(2, 4, 20), allowed(1, 4, 30), allowed(0, 4, 40), refused(4, 40, 10), refused(4, 40, 10)]);
  });

  test("two replicas taking at once never spend more than the bucket holds", async () => {
    const replicas = [new RedisTokenBuckets(client(), { fallback: noFallback }), new RedisTokenBuckets(client(), { fallback: noFallback })];
    const rule = oneEveryTenSeconds(10);
    const key = freshKey();
    const decisions = await Promise.all(Array.from({ length: 30 }, (_, i) => replicas[i % 2]!.take(key, rule)));
    const granted = decisions.filter((decision) => decision.allowed);
    expect(granted.map((decision) => decision.remaining).toSorted((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  test("keeps one key per bucket under the client's prefix, expiring when the bucket would be full", async () => {
    const redis = client();
    const buckets = new RedisTokenBuckets(redis, { fallback: noFallback });
    const rule: RateRule = { capacity: 5, perSecond: 1 };
    const key = freshKey();
    await buckets.take(key, rule);
    const afterOne = await redis.pttl(`rate-limit:${key}`);
    expect(afterOne).toBeGreaterThan(800);
    expect(afterOne).toBeLessThanOrEqual(1_000);
    await takeTimes(buckets, key, rule, 4);
    const afterFive = await redis.pttl(`rate-limit:${key}`);
    expect(afterFive).toBeGreaterThan(4_800);
    expect(afterFive).toBeLessThanOrEqual(5_000);
    // A refused take writes nothing, so the expiry stays where the last allowed take put it.
    expect((await buckets.take(key, rule)).allowed).toBe(false);
    expect(await redis.pttl(`rate-limit:${key}`)).toBeLessThanOrEqual(afterFive);
  });
});

describe("token buckets in Redis, when Redis is unreachable", () => {
  const capture = () => {
    const lines: string[] = [];
    const log: Logger = { ...silentLogger, warn: (message) => lines.push(`warn ${message}`), info: (message) => lines.push(`info ${message}`) };
    return { lines, log };
  };
  const fallbackWarning = "warn Redis unavailable: rate limits hold per gateway process only";

  test("falls back to in-process buckets at once when Redis dies, still limiting, and warns once", async () => {
    await using server = await startRedisProcess();
    const redis = createRedisClient({ url: server.url, db: 0, keyPrefix: "gateway:" });
    try {
      const { lines, log } = capture();
      await waitFor("the client connected", () => redis.status === "ready");
      const buckets = new RedisTokenBuckets(redis, { log });
      const rule = oneEveryTenSeconds(3);
      const key = freshKey();
      expect(await buckets.take(key, rule)).toEqual(allowed(2, 3, 10));
      expect(await redis.exists(`rate-limit:${key}`)).toBe(1);
      await server.kill();

      const started = performance.now();
      // The in-process bucket starts full: the budget is per process while Redis is gone.
      expect(await takeTimes(buckets, key, rule, 4)).toEqual([allowed(2, 3, 10), allowed(1, 3, 20), allowed(0, 3, 30), refused(3, 30, 10)]);
      expect(performance.now() - started).toBeLessThan(500);
      expect(lines).toEqual([fallbackWarning]);
    } finally {
      redis.disconnect();
    }
  });

  test("goes back to Redis when it returns, and reloads the script a new server does not know", async () => {
    await using server = await startRedisProcess();
    const redis = createRedisClient({ url: server.url, db: 0, keyPrefix: "gateway:" });
    let restarted: ReturnType<typeof Bun.spawn> | undefined;
    try {
      const { lines, log } = capture();
      await waitFor("the client connected", () => redis.status === "ready");
      const buckets = new RedisTokenBuckets(redis, { log });
      const rule = oneEveryTenSeconds(3);
      const first = freshKey();
      await buckets.take(first, rule);
      expect(await redis.exists(`rate-limit:${first}`)).toBe(1);
      await server.kill();
      await buckets.take(freshKey(), rule);
      expect(lines).toEqual([fallbackWarning]);

      // A fresh server has an empty script cache: EVALSHA fails with NOSCRIPT.
      restarted = Bun.spawn(["redis-server", "--port", String(server.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
        stdout: "ignore",
        stderr: "inherit",
      });
      await waitFor("the buckets back on Redis", async () => {
        await buckets.take(freshKey(), rule);
        return lines.includes("info rate limits are shared through Redis again");
      });
      const key = freshKey();
      expect(await buckets.take(key, rule)).toEqual(allowed(2, 3, 10));
      expect(await redis.exists(`rate-limit:${key}`)).toBe(1);
    } finally {
      redis.disconnect();
      restarted?.kill("SIGKILL");
      await restarted?.exited;
    }
  });
});

describe("token buckets in memory", () => {
  function clocked(options: { maxBuckets?: number; sweepEveryMs?: number } = {}) {
    const clock = { ms: 0 };
    return { clock, buckets: new MemoryTokenBuckets({ ...options, now: () => clock.ms }) };
  }

  test("refills fractions of a token and never beyond the capacity", async () => {
    const { clock, buckets } = clocked();
    const rule: RateRule = { capacity: 4, perSecond: 2 };
    const key = freshKey();
    await takeTimes(buckets, key, rule, 4);
    clock.ms = 250;
    expect(await buckets.take(key, rule)).toEqual(refused(4, 2, 1));
    clock.ms = 500;
    expect(await buckets.take(key, rule)).toEqual(allowed(0, 4, 2));
    clock.ms = 60_000;
    expect(await buckets.take(key, rule)).toEqual(allowed(3, 4, 1));
  });

  test("a clock that steps back refills nothing", async () => {
    const { clock, buckets } = clocked();
    const rule = oneEveryTenSeconds(1);
    const key = freshKey();
    clock.ms = 5_000;
    await buckets.take(key, rule);
    clock.ms = 0;
    expect(await buckets.take(key, rule)).toEqual(refused(1, 10, 10));
  });

  test("drops buckets that are full again on the periodic sweep, and keeps the others", async () => {
    const { clock, buckets } = clocked({ sweepEveryMs: 1_000 });
    await buckets.take("fast", { capacity: 1, perSecond: 2 });
    await buckets.take("slow", oneEveryTenSeconds(1));
    clock.ms = 1_000;
    await buckets.take("new", oneEveryTenSeconds(1));
    expect(buckets.size).toBe(2);
    expect(await buckets.take("slow", oneEveryTenSeconds(1))).toEqual(refused(1, 9, 9));
  });

  test("holds at most maxBuckets, evicting the least recently used", async () => {
    const { buckets } = clocked({ maxBuckets: 2 });
    const rule = oneEveryTenSeconds(1);
    await buckets.take("a", rule);
    await buckets.take("b", rule);
    // Refused, yet used: "a" stays, or a client being refused could get evicted into a fresh burst.
    expect(await buckets.take("a", rule)).toEqual(refused(1, 10, 10));
    await buckets.take("c", rule);
    expect(buckets.size).toBe(2);
    expect(await buckets.take("a", rule)).toEqual(refused(1, 10, 10));
    expect(await buckets.take("b", rule)).toEqual(allowed(0, 1, 10));
  });
});
