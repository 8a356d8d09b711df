import Redis, { Cluster, type RedisOptions } from "ioredis";
import type { RedisTarget } from "../core/config.ts";

/** A service's Redis: one server (perhaps found through Sentinel) or a Redis Cluster. */
export type RedisClient = Redis | Cluster;

/** How often a Cluster client asks for the slot map again. */
export const clusterSlotsRefreshMs = 2_000;

export function isCluster(redis: RedisClient): redis is Cluster {
  return (redis as { isCluster?: boolean }).isCluster === true;
}

/**
 * For `/ready`: one server answers PING. A Cluster's PING goes to any one
 * node, which answers while the cluster refuses every keyed command: there
 * the node must also say the cluster is ok (`CLUSTER INFO`).
 */
export async function pingRedis(redis: RedisClient): Promise<void> {
  if (!isCluster(redis)) {
    await redis.ping();
    return;
  }
  const info = String(await redis.cluster("INFO"));
  if (!/^cluster_state:ok\r?$/m.test(info)) throw new Error("the Redis Cluster is down (cluster_state is not ok)");
}

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
 * failover the cluster's MOVED answers, and a refresh of the slot map every
 * 2 s, point it to the promoted replica (the refresh is what finds it when
 * the old primary hangs rather than closing its connections: ioredis has
 * none by default). ioredis would retry a command sent to a dead primary or
 * a cluster that is down every 100 ms, 16 times (1.6 s), and a primary stays
 * dead for the cluster's whole node timeout (15 s by default) while every
 * caller has a fallback: here a command to a closed connection is tried
 * again at most 3 times, 50 ms apart, each after asking for the slot map
 * (so the first command after a failover reaches the promoted replica
 * instead of failing), and one the cluster refuses as down fails at once.
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
      ? new Cluster(options.clusterNodes, {
          ...common,
          redisOptions: perConnection,
          retryDelayOnFailover: 50,
          maxRedirections: 4,
          retryDelayOnClusterDown: 0,
          slotsRefreshInterval: clusterSlotsRefreshMs,
        })
      : "sentinels" in options
        ? new Redis({ ...common, ...perConnection, db: options.db, sentinels: options.sentinels, name: options.name })
        : new Redis(options.url, { ...common, ...perConnection, db: options.db });
  redis.on("error", () => {});
  return redis;
}
