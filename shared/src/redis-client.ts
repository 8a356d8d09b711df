import Redis, { type RedisOptions } from "ioredis";
import type { RedisTarget } from "./config.ts";

/**
 * The services' Redis client. While Redis is down, commands fail at once (no
 * offline queue) or after 500 ms (a hung server), so callers fall back
 * instead of piling up requests; ioredis reconnects by itself. Errors are
 * reported by the callers' fail-soft wrappers, so the client's own error
 * events are not logged again.
 *
 * Through Sentinel, ioredis asks the sentinels for the primary and asks
 * again after a failover: commands fail during the seconds of the switch,
 * which the same fallbacks cover (docs/scaling.md).
 */
export function createRedisClient(options: RedisTarget & { keyPrefix: string }): Redis {
  const common: RedisOptions = {
    db: options.db,
    keyPrefix: options.keyPrefix,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
  };
  const redis =
    "sentinels" in options
      ? new Redis({ ...common, sentinels: options.sentinels, name: options.name, ...(options.password ? { password: options.password } : {}) })
      : new Redis(options.url, common);
  redis.on("error", () => {});
  return redis;
}
