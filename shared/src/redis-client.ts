import Redis from "ioredis";

/**
 * The services' Redis client. While Redis is down, commands fail at once (no
 * offline queue) or after 500 ms (a hung server), so callers fall back
 * instead of piling up requests; ioredis reconnects by itself. Errors are
 * reported by the callers' fail-soft wrappers, so the client's own error
 * events are not logged again.
 */
export function createRedisClient(options: { url: string; db: number; keyPrefix: string }): Redis {
  const redis = new Redis(options.url, {
    db: options.db,
    keyPrefix: options.keyPrefix,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
  });
  redis.on("error", () => {});
  return redis;
}
