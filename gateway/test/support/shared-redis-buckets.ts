import { deleteKeysWithPrefix, testRedisUrl, uniqueRedisPrefix } from "@linkgeo/testing";
import Redis from "ioredis";
import { RedisTokenBuckets } from "@linkgeo/shared/rate-limit";
import type { TokenBuckets } from "@linkgeo/shared/rate-limit";

// Where Redis is the point, falling back to memory must fail the test rather than pass unnoticed.
const noFallback: TokenBuckets = {
  take: () => {
    throw new Error("the Redis buckets fell back to memory");
  },
  peek: () => {
    throw new Error("the Redis buckets fell back to memory");
  },
};

/**
 * Token buckets in Redis under a prefix of their own, as gateway replicas
 * share them: each `buckets()` is another replica's client. `keys()` reads
 * what Redis holds (without the prefix); `dispose()` disconnects and deletes
 * the prefix's keys.
 */
export function sharedRedisBuckets(label: string) {
  const prefix = uniqueRedisPrefix(label);
  const clients: Redis[] = [];
  return {
    buckets(): TokenBuckets {
      const redis = new Redis(testRedisUrl, { keyPrefix: prefix });
      clients.push(redis);
      return new RedisTokenBuckets(redis, { fallback: noFallback });
    },
    async keys(): Promise<string[]> {
      const reader = new Redis(testRedisUrl);
      clients.push(reader);
      return (await reader.keys(`${prefix}*`)).map((key) => key.slice(prefix.length));
    },
    async dispose(): Promise<void> {
      for (const redis of clients) redis.disconnect();
      await deleteKeysWithPrefix(testRedisUrl, prefix);
    },
  };
}
