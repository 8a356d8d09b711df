import type { Logger } from "../core/logger.ts";
import { createRedisClient, type RedisClient } from "../storage/redis-client.ts";
import { reportRedisConnection } from "../storage/redis-connection-report.ts";
import type { ServiceBasics } from "./service-config.ts";

/**
 * The service's Redis client when it is configured with one (REDIS_URL or
 * REDIS_CLUSTER_NODES), whose failures to connect are logged naming that
 * variable and the address (see `reportRedisConnection`).
 */
export function openServiceRedis(basics: Pick<ServiceBasics, "redis" | "redisSource" | "redisKeyPrefix">, log: Logger): RedisClient | undefined {
  if (!basics.redis) return undefined;
  const redis = createRedisClient({ ...basics.redis, keyPrefix: basics.redisKeyPrefix });
  if (basics.redisSource) reportRedisConnection(redis, basics.redisSource, log);
  return redis;
}
