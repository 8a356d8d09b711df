import { createLogger, createRedisClient, keepServingOnUnexpectedErrors, readConfigOrExit, ServiceLifecycle, startServiceMetrics } from "@linkgeo/shared";
import ky from "ky";
import { createApp } from "./app.ts";
import { geocoderMetrics } from "./geocoding/geocoder-metrics.ts";
import { ReverseGeocoder } from "./geocoding/reverse-geocoder.ts";
import { FailSoftCacheLevel } from "./cache/fail-soft-cache-level.ts";
import { MemoryCacheLevel } from "./cache/memory-cache-level.ts";
import { RedisCacheLevel } from "./cache/redis-cache-level.ts";
import { openCacheDatabase, SqliteCacheLevel } from "./cache/sqlite-cache-level.ts";
import { TwoLevelCache } from "./cache/two-level-cache.ts";
import { readGeocoderConfig } from "./config.ts";
import { RedisHealthStore } from "./health/redis-health-store.ts";
import { loadLocalProvider } from "./local/load-local-provider.ts";
import { buildProviders } from "./providers/build-providers.ts";
import { ProviderRegistry } from "./providers/provider-registry.ts";
import { MemoryRateLimiter } from "./rate-limit/memory-rate-limiter.ts";
import { RedisRateLimiter } from "./rate-limit/redis-rate-limiter.ts";

const config = readConfigOrExit("geocoder", readGeocoderConfig);

const log = createLogger({ service: "geocoder", level: config.logLevel, format: config.logFormat });
keepServingOnUnexpectedErrors(log);
const clock = () => new Date();

// While Redis is down, L1 turns into misses, and the rate limits and the
// providers' cooldowns and breakers into per-process ones.
const redis = config.redis ? createRedisClient({ ...config.redis, keyPrefix: config.redisKeyPrefix }) : undefined;

const l2Database = openCacheDatabase(config.cachePath);
const l2 = new SqliteCacheLevel(l2Database);
const l1 = redis ? new RedisCacheLevel(redis) : new MemoryCacheLevel({ maxEntries: 50_000 });
const cache = new TwoLevelCache({
  l1: new FailSoftCacheLevel(l1, { name: "L1", log }),
  l2: new FailSoftCacheLevel(l2, { name: "L2", log }),
  ttls: { l2Days: config.l2TtlDays, fallbackSeconds: config.fallbackTtlSeconds },
});

const rateLimiter = redis ? new RedisRateLimiter(redis, { fallback: new MemoryRateLimiter(), log }) : new MemoryRateLimiter();
const local = config.local ? loadLocalProvider() : undefined;
if (local) log.info("local dataset loaded", { provider: local.provider.name, places: local.places, regions: local.regions, ms: local.loadMs });
const healthStore = redis ? new RedisHealthStore(redis, { log }) : undefined;
const metrics = startServiceMetrics({ service: "geocoder", port: config.metricsPort, hostname: config.hostname, log });
const observer = metrics.registry && geocoderMetrics(metrics.registry);
const providers = buildProviders(config, {
  http: ky.create({}),
  rateLimiter,
  healthStore,
  clock,
  log,
  local: local?.provider,
  onHealth: observer?.healthChanged,
});
const registry = new ProviderRegistry(providers, config.defaultOrder);
if (providers.length === 0) log.warn("no provider is configured (GEOCODER_LOCAL=false): /reverse-geocode will answer 503 no_providers");

const geocoder = new ReverseGeocoder(registry, cache, clock, log, { chainTimeoutMs: config.chainTimeoutMs, observer });

const lifecycle = new ServiceLifecycle(log, metrics);
const app = createApp({
  registry,
  geocoder,
  log,
  accessLog: config.accessLog,
  readiness: {
    required: { l2: () => l2.ping() },
    optional: redis ? { l1: () => l1.ping() } : {},
  },
  accepting: lifecycle.accepting,
  metrics: metrics.registry,
});

lifecycle.serve(app, {
  port: config.port,
  hostname: config.hostname,
  listening: { providers: registry.defaultChain().map((p) => p.name), l1: redis ? "redis" : "memory", l2: config.cachePath },
  afterStop: [
    {
      name: "close the cache",
      run: async () => {
        redis?.disconnect();
        l2Database.close();
      },
    },
  ],
});
