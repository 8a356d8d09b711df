import Redis from "ioredis";
import { defaultTestRedisUrl } from "./throwaway-servers.ts";

/** The server the suites use: the developer's or CI's own, or the run's throwaway one (throwaway-servers.ts). */
export const testRedisUrl = process.env.TEST_REDIS_URL || defaultTestRedisUrl;

/** A key prefix no other run uses; `deleteKeysWithPrefix` cleans it up. */
export function uniqueRedisPrefix(label: string): string {
  return `test:${label}:${crypto.randomUUID().slice(0, 8)}:`;
}

export async function deleteKeysWithPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true });
  try {
    await redis.connect();
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}
