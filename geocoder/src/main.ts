import { beginService, openServiceRedis, ServiceLifecycle, startServiceMetrics } from "@linkgeo/shared";
import ky from "ky";
import { hostname } from "node:os";
import { createApp } from "./app.ts";
import { geocoderMetrics } from "./geocoding/geocoder-metrics.ts";
import { ReverseGeocoder } from "./geocoding/reverse-geocoder.ts";
import { ForwardGeocoder } from "./geocoding/forward-geocoder.ts";
import { connectingJobStore } from "./jobs/connecting-job-store.ts";
import { guardedJobStore } from "./jobs/guarded-job-store.ts";
import { jobClientDigest } from "./jobs/job-client.ts";
import { jobPace, startJobRunner } from "./jobs/job-runner.ts";
import { PostgresJobStore } from "./jobs/postgres-job-store.ts";
import { openJobDatabase, SqliteJobStore } from "./jobs/sqlite-job-store.ts";
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

const { config, log } = beginService("geocoder", readGeocoderConfig);
const clock = () => new Date();
/** Every call of the jobs' store gives up after this long (a statement on Postgres, a call on either engine). */
const jobStoreTimeoutMs = 5_000;

// While Redis is down, L1 turns into misses, and the rate limits and the
// providers' cooldowns and breakers into per-process ones.
const redis = openServiceRedis(config, log);

const l2Database = openCacheDatabase(config.cachePath);
const l2 = new SqliteCacheLevel(l2Database);
const l1 = redis ? new RedisCacheLevel(redis) : new MemoryCacheLevel({ maxEntries: 50_000 });
const cache = new TwoLevelCache({
  l1: new FailSoftCacheLevel(l1, { name: "L1", log }),
  l2: new FailSoftCacheLevel(l2, { name: "L2", log }),
  ttls: { l2Days: config.l2TtlDays, fallbackSeconds: config.fallbackTtlSeconds },
});

const sharedRateLimiter = redis ? new RedisRateLimiter(redis, { fallback: new MemoryRateLimiter(), log }) : undefined;
const rateLimiter = sharedRateLimiter ?? new MemoryRateLimiter();
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
const forwardGeocoder = new ForwardGeocoder(registry, cache, clock, log, { chainTimeoutMs: config.chainTimeoutMs, observer });

// Jobs: every replica answers their points, sharing them through the store.
// Postgres is opened in the background: down at start, it costs the jobs' routes a 503, not the whole service.
const { jobs: jobsTarget } = config;
const unguardedJobStore =
  jobsTarget.engine === "postgres"
    ? connectingJobStore(() => PostgresJobStore.open(jobsTarget.url, jobStoreTimeoutMs), { log })
    : new SqliteJobStore(openJobDatabase(jobsTarget.path));
const jobStore = guardedJobStore(unguardedJobStore, jobStoreTimeoutMs);
const jobTtlMs = config.jobTtlHours * 3_600_000;
if (config.production && config.jobsSecret === undefined) {
  log.warn("GEOCODER_JOBS_SECRET is not set: each replica (and each start) counts a client's jobs apart, so its quotas multiply by the replicas");
}
const jobRunner = startJobRunner({
  store: jobStore,
  // Postgres still opening at start: the first claim waits for it rather than failing.
  storeOpened: "opened" in unguardedJobStore ? unguardedJobStore.opened : undefined,
  geocoder,
  forward: forwardGeocoder,
  pace: jobPace(config.chainTimeoutMs, config.jobPointsInFlight),
  owner: `${hostname()}:${process.pid}:${crypto.randomUUID()}`,
  ttlMs: jobTtlMs,
  leaseMs: config.jobLeaseMs,
  // Redis connecting, down, or failing the spacing's calls (a Cluster's slots down, a server that hangs): the spacing would be this process's only.
  spacingShared: () => sharedRateLimiter === undefined || (redis?.status === "ready" && sharedRateLimiter.sharesSpacing()),
  log,
});

const lifecycle = new ServiceLifecycle(log, metrics);
const app = createApp({
  registry,
  geocoder,
  forwardGeocoder,
  jobs: { store: jobStore, wake: jobRunner.wake, clock, ttlMs: jobTtlMs, quota: config.jobQuota, clientDigest: jobClientDigest(config.jobsSecret) },
  trustedProxies: config.trustedProxies,
  log,
  accessLog: config.accessLog,
  readiness: {
    required: { l2: () => l2.ping() },
    // Single queries and batches go on while the jobs' store is down.
    optional: { jobs: () => jobStore.ping(), ...(redis ? { l1: () => l1.ping() } : {}) },
  },
  accepting: lifecycle.accepting,
  metrics: metrics.registry,
});

lifecycle.serve(app, {
  port: config.port,
  hostname: config.hostname,
  listening: {
    providers: registry.defaultChain().map((p) => p.name),
    l1: redis ? "redis" : "memory",
    l2: config.cachePath,
    jobs: config.jobs.engine === "postgres" ? "postgres" : config.jobs.path,
  },
  afterStop: [
    {
      name: "stop answering jobs",
      run: async () => {
        await jobRunner.stop();
        await jobStore.close();
      },
    },
    {
      name: "close the cache",
      run: async () => {
        redis?.disconnect();
        l2Database.close();
      },
    },
  ],
});
