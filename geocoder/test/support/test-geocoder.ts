import { Database } from "bun:sqlite";
import { defaultTestTimeoutMs } from "@linkgeo/testing";
import { silentLogger, type IpRange, type Logger, type MetricsRegistry } from "@linkgeo/shared";
import type Redis from "ioredis";
import ky from "ky";
import { createApp } from "../../src/app.ts";
import { geocoderMetrics } from "../../src/geocoding/geocoder-metrics.ts";
import { ReverseGeocoder } from "../../src/geocoding/reverse-geocoder.ts";
import { ForwardGeocoder } from "../../src/geocoding/forward-geocoder.ts";
import { guardedJobStore } from "../../src/jobs/guarded-job-store.ts";
import { jobPace, startJobRunner, type JobRunnerOptions } from "../../src/jobs/job-runner.ts";
import type { JobQuota } from "../../src/jobs/job-quota.ts";
import type { JobStore } from "../../src/jobs/job-store.ts";
import { openJobDatabase, SqliteJobStore } from "../../src/jobs/sqlite-job-store.ts";
import { FailSoftCacheLevel } from "../../src/cache/fail-soft-cache-level.ts";
import type { CacheLevel } from "../../src/cache/cached-answer.ts";
import { MemoryCacheLevel } from "../../src/cache/memory-cache-level.ts";
import { RedisCacheLevel } from "../../src/cache/redis-cache-level.ts";
import { SqliteCacheLevel } from "../../src/cache/sqlite-cache-level.ts";
import { TwoLevelCache } from "../../src/cache/two-level-cache.ts";
import { readGeocoderConfig, type GeocoderConfig } from "../../src/config.ts";
import { buildProviders } from "../../src/providers/build-providers.ts";
import type { OrderEntry } from "../../src/config.ts";
import { ProviderRegistry } from "../../src/providers/provider-registry.ts";
import type { Provider } from "../../src/providers/provider.ts";
import { MemoryRateLimiter } from "../../src/rate-limit/memory-rate-limiter.ts";

export interface TestGeocoderOptions {
  providers: Partial<Pick<GeocoderConfig, "geoapify" | "here" | "nominatim" | "replicas" | "rateLimits">>;
  order?: OrderEntry[];
  /** A Redis client (with its key prefix) for L1; default an in-process L1. */
  redis?: Redis;
  /**
   * A provider call's deadline, and the chain's: by default none a case
   * outlives (defaultTestTimeoutMs), so a fake that answers is never timed
   * out, however starved the test's process. A case about deadlines sets them.
   */
  providerTimeoutMs?: number;
  chainTimeoutMs?: number;
  /** How long both cache levels keep a fallback answer; default the cache's. */
  fallbackTtlSeconds?: number;
  /** The clock of the caches, the providers' health and the service; tests that need time to pass move it. */
  clock?: () => Date;
  log?: Logger;
  /** Metrics (METRICS_PORT): every request and provider call recorded here. */
  metrics?: MetricsRegistry;
  /** One line per request to `log`, as ACCESS_LOG=true writes them. */
  accessLog?: boolean;
  /** LOCAL, registered last when given (`sharedLocalProvider()`: one load per test process), or an `inProcessProvider`. */
  local?: Provider;
  /**
   * Jobs: kept in an in-memory SQLite store (or `store`), and answered by a
   * runner when `run` is set (stopped by disposing of the geocoder); by
   * default nothing answers them.
   */
  jobs?: {
    store?: JobStore;
    run?: Partial<Omit<JobRunnerOptions, "store" | "geocoder" | "log" | "ttlMs">>;
    ttlMs?: number;
    timeoutMs?: number;
    /** The quotas; default the service's defaults (readGeocoderConfig). */
    quota?: JobQuota;
  };
  /** The socket's peer of every request (app.handle has none); default none, so every client is `unknown`. */
  peerOf?: (request: Request) => string | undefined;
  /** TRUSTED_PROXIES; default this machine only. */
  trustedProxies?: IpRange[];
}

export interface TestGeocoder extends AsyncDisposable {
  app: ReturnType<typeof createApp>;
  geocoder: ReverseGeocoder;
  jobStore: JobStore;
  l1: CacheLevel;
  l2: SqliteCacheLevel;
  l2Database: Database;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
}

/** The real geocoder app, its providers pointing at fake provider servers. */
export function startTestGeocoder(options: TestGeocoderOptions): TestGeocoder {
  const log = options.log ?? silentLogger;
  const clock = options.clock ?? (() => new Date());
  const now = () => clock().getTime();
  const l2Database = new Database(":memory:");
  const l2 = new SqliteCacheLevel(l2Database, { now });
  const l1: CacheLevel = options.redis ? new RedisCacheLevel(options.redis) : new MemoryCacheLevel({ now });
  const cache = new TwoLevelCache({
    l1: new FailSoftCacheLevel(l1, { name: "L1", log }),
    l2: new FailSoftCacheLevel(l2, { name: "L2", log }),
    now,
    ttls: options.fallbackTtlSeconds === undefined ? {} : { fallbackSeconds: options.fallbackTtlSeconds },
  });
  const observer = options.metrics && geocoderMetrics(options.metrics);
  const providers = buildProviders(
    {
      geoapify: undefined,
      here: undefined,
      nominatim: undefined,
      replicas: [],
      rateLimits: {},
      providerTimeoutMs: options.providerTimeoutMs ?? defaultTestTimeoutMs,
      ...options.providers,
    },
    { http: ky.create({}), rateLimiter: new MemoryRateLimiter(), clock, log, local: options.local, onHealth: observer?.healthChanged },
  );
  const registry = new ProviderRegistry(providers, options.order ?? ["REPLICAS", "NOMINATIM", "GEOAPIFY", "HERE", "LOCAL"]);
  const geocoder = new ReverseGeocoder(registry, cache, clock, log, { chainTimeoutMs: options.chainTimeoutMs ?? defaultTestTimeoutMs, observer });
  const forwardGeocoder = new ForwardGeocoder(registry, cache, clock, log, { chainTimeoutMs: options.chainTimeoutMs ?? defaultTestTimeoutMs, observer });
  const jobStore = guardedJobStore(options.jobs?.store ?? new SqliteJobStore(openJobDatabase(":memory:")), options.jobs?.timeoutMs ?? 5_000);
  const ttlMs = options.jobs?.ttlMs ?? 3_600_000;
  const run = options.jobs?.run;
  const runner = run
    ? startJobRunner({
        store: jobStore,
        geocoder,
        forward: forwardGeocoder,
        log,
        ttlMs,
        owner: run.owner ?? `test-${crypto.randomUUID()}`,
        pace: run.pace ?? jobPace(options.chainTimeoutMs ?? 8_000, 4),
        now: run.now ?? (() => clock().getTime()),
        ...run,
      })
    : undefined;
  let disposed = false;
  const app = createApp({
    registry,
    geocoder,
    forwardGeocoder,
    jobs: { store: jobStore, wake: () => runner?.wake(), clock, ttlMs, quota: options.jobs?.quota ?? readGeocoderConfig({}).jobQuota },
    peerOf: options.peerOf,
    trustedProxies: options.trustedProxies,
    log,
    accessLog: options.accessLog,
    readiness: { required: { l2: () => l2.ping() } },
    metrics: options.metrics,
  });
  return {
    app,
    geocoder,
    jobStore,
    async [Symbol.asyncDispose]() {
      if (disposed) return;
      disposed = true;
      await runner?.stop();
      await jobStore.close();
    },
    l1,
    l2,
    l2Database,
    get: (path, headers = {}) => app.handle(new Request(`http://localhost${path}`, { headers })),
  };
}
