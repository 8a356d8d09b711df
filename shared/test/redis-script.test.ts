import { afterAll, describe, expect, test } from "bun:test";
import { redisScript } from "@linkgeo/shared";
import { deleteKeysWithPrefix, testRedisUrl, uniqueRedisPrefix } from "@linkgeo/testing";
import Redis from "ioredis";

const prefix = uniqueRedisPrefix("redis-script");
afterAll(() => deleteKeysWithPrefix(testRedisUrl, prefix));

// INCRBY on KEYS[1] by ARGV[1], returning the new value.
const incrementBy = "return redis.call('INCRBY', KEYS[1], ARGV[1])";

describe("redisScript", () => {
  test("runs the script with its keys under the client's prefix, and again after Redis forgets it (NOSCRIPT)", async () => {
    const redis = new Redis(testRedisUrl, { keyPrefix: prefix });
    const plain = new Redis(testRedisUrl);
    try {
      const increment = redisScript(redis, "testIncrementBy", incrementBy, 1);
      expect(await increment("counter", 2)).toBe(2);
      expect(await plain.get(`${prefix}counter`)).toBe("2");

      // What a restarted or flushed Redis does to every cached script.
      await plain.script("FLUSH");
      expect(await increment("counter", 3)).toBe(5);
    } finally {
      redis.disconnect();
      plain.disconnect();
    }
  });

  test("binding the same name twice on one client defines it once and both calls work", async () => {
    const redis = new Redis(testRedisUrl, { keyPrefix: prefix });
    try {
      const first = redisScript(redis, "testIncrementTwice", incrementBy, 1);
      const second = redisScript(redis, "testIncrementTwice", incrementBy, 1);
      expect([await first("twice", 1), await second("twice", 1)]).toEqual([1, 2]);
    } finally {
      redis.disconnect();
    }
  });
});
