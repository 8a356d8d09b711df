import { parseRedisClusterNodes, parseRedisUrl, type EnvReader, type RedisSource, type RedisTarget } from "../core/config.ts";
import { redactedUrl } from "../core/redacted-url.ts";
import type { LogFormat, LogLevel } from "../core/logger.ts";
import { parseMetricsPort } from "../metrics/metrics-registry.ts";

/** What every service is configured with alike. */
export interface ServiceBasics {
  port: number;
  hostname: string;
  /** NODE_ENV=production: JSON logs by default (and, on the shortener, Secure cookies and a required key). */
  production: boolean;
  /** Absent: the service keeps its state in the process (single instance). */
  redis: RedisTarget | undefined;
  /** Which variable named that Redis, and where, as it may be printed (set with `redis`). */
  redisSource: RedisSource | undefined;
  redisKeyPrefix: string;
  /** Prometheus metrics on this port (GET /metrics); absent: none recorded. */
  metricsPort: number | undefined;
  logLevel: LogLevel;
  logFormat: LogFormat;
  accessLog: boolean;
}

/**
 * The variables every service reads alike, read in one place: PORT, HOST,
 * NODE_ENV, REDIS_URL or REDIS_CLUSTER_NODES (with REDIS_CLUSTER_PASSWORD),
 * REDIS_KEY_PREFIX, METRICS_PORT, LOG_LEVEL, LOG_FORMAT and ACCESS_LOG. Each service's config.ts calls it with its own
 * port and key prefix, and reads its own variables beside.
 */
export function readServiceBasics(vars: EnvReader, defaults: { port: number; redisKeyPrefix: string }): ServiceBasics {
  const production = vars.string("NODE_ENV", "development") === "production";
  return {
    port: vars.integer("PORT", defaults.port, { min: 0, max: 65535 }),
    hostname: vars.string("HOST", "0.0.0.0"),
    production,
    redis: readRedisTarget(vars),
    redisSource: readRedisSource(vars),
    redisKeyPrefix: vars.string("REDIS_KEY_PREFIX", defaults.redisKeyPrefix),
    metricsPort: vars.parsed("METRICS_PORT", parseMetricsPort),
    logLevel: vars.oneOf("LOG_LEVEL", ["debug", "info", "warn", "error"], "info"),
    logFormat: vars.oneOf("LOG_FORMAT", ["json", "pretty"], production ? "json" : "pretty"),
    accessLog: vars.oneOf("ACCESS_LOG", ["true", "false"], "true") === "true",
  };
}

function readRedisSource(vars: EnvReader): RedisSource | undefined {
  const clusterNodes = vars.raw("REDIS_CLUSTER_NODES");
  if (clusterNodes !== undefined) return { variable: "REDIS_CLUSTER_NODES", address: clusterNodes };
  const url = vars.raw("REDIS_URL");
  return url === undefined ? undefined : { variable: "REDIS_URL", address: redactedUrl(url) };
}

/** One server or Sentinel (REDIS_URL), or a Cluster (REDIS_CLUSTER_NODES): never both. */
function readRedisTarget(vars: EnvReader): RedisTarget | undefined {
  const url = vars.parsed("REDIS_URL", parseRedisUrl);
  const clusterNodes = vars.parsed("REDIS_CLUSTER_NODES", parseRedisClusterNodes);
  const password = vars.raw("REDIS_CLUSTER_PASSWORD");
  if (vars.raw("REDIS_CLUSTER_NODES") === undefined) {
    if (password !== undefined) vars.problem("REDIS_CLUSTER_PASSWORD is set without REDIS_CLUSTER_NODES (a single server's password goes in REDIS_URL)");
    return url;
  }
  if (vars.raw("REDIS_URL") !== undefined) vars.problem("REDIS_URL and REDIS_CLUSTER_NODES are both set: a service uses one Redis, set one of them");
  return clusterNodes && { clusterNodes, ...(password !== undefined ? { password } : {}) };
}
