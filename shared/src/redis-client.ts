import Redis, { Cluster, type RedisOptions } from "ioredis";
import type { RedisTarget } from "./config.ts";

/** A service's Redis: one server (perhaps found through Sentinel) or a Redis Cluster. */
export type RedisClient = Redis | Cluster;

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
 *
 * On a Cluster, ioredis learns from the nodes given which primary holds
 * which slots and sends each command to its key's primary; after a
 * failover the cluster's MOVED answers (and a refresh every 5 s) point it to
 * the promoted replica. ioredis would retry a command sent to a dead primary
 * or a cluster that is down every 100 ms, 16 times: here it fails at once
 * instead, as on one server, since a primary stays dead for the cluster's
 * whole node timeout (15 s by default) and every caller has a fallback.
 * Every script touches one key, so each runs on a Cluster; multi-key reads
 * go key by key (see RedisCacheLevel).
 */
export function createRedisClient(options: RedisTarget & { keyPrefix: string }): RedisClient {
  const perConnection: RedisOptions = {
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
    ...("password" in options && options.password ? { password: options.password } : {}),
  };
  const common = { keyPrefix: options.keyPrefix, enableOfflineQueue: false, enableAutoPipelining: true };
  const redis =
    "clusterNodes" in options
      ? new Cluster(options.clusterNodes, { ...common, redisOptions: perConnection, retryDelayOnFailover: 0, retryDelayOnClusterDown: 0 })
      : "sentinels" in options
        ? new Redis({ ...common, ...perConnection, db: options.db, sentinels: options.sentinels, name: options.name })
        : new Redis(options.url, { ...common, ...perConnection, db: options.db });
  redis.on("error", () => {});
  return redis;
}
