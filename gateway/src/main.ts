import { beginService, clientOfRequest, openServiceRedis, pingRedis, ServiceLifecycle, startServiceMetrics } from "@linkgeo/shared";
import { createApp } from "./app.ts";
import { readGatewayConfig } from "./config.ts";
import { gatewayMetrics, type GatewayObserver } from "./metrics/gateway-metrics.ts";
import { RedirectBatcher } from "./proxy/redirect-batcher.ts";
import { addressDigest } from "./rate-limit/address-digest.ts";
import { MemoryTokenBuckets } from "@linkgeo/shared/rate-limit";
import { RedisTokenBuckets } from "@linkgeo/shared/rate-limit";
import { UpstreamPool } from "./upstreams/upstream-pool.ts";
import { buildWebAssets } from "@linkgeo/webapp";

const { config, log } = beginService("gateway", readGatewayConfig);
const clock = () => new Date();

// While Redis is down each gateway process limits on its own.
const redis = openServiceRedis(config, log);
const buckets = redis ? new RedisTokenBuckets(redis, { fallback: new MemoryTokenBuckets(), log }) : new MemoryTokenBuckets();

const metrics = startServiceMetrics({ service: "gateway", port: config.metricsPort, hostname: config.hostname, log });
// Made once the pools exist (it reports how many replicas each knows); the pools tell it of ejections.
let observer: GatewayObserver | undefined;
const pool = (name: string, urls: string[]) =>
  new UpstreamPool({
    name,
    urls,
    refreshMs: config.dnsRefreshMs,
    ejectMs: config.upstreamEjectMs,
    log,
    clock,
    onEject: (replica) => observer?.ejected(name, replica),
  });
const upstreams = { shortener: pool("shortener", config.shortenerUrls), geocoder: pool("geocoder", config.geocoderUrls) };
observer = metrics.registry && gatewayMetrics(metrics.registry, [upstreams.shortener, upstreams.geocoder]);
await Promise.all([upstreams.shortener.start(), upstreams.geocoder.start()]);

const web = await buildWebAssets();
const redirectBatches = config.internalSecret
  ? new RedirectBatcher({ pool: upstreams.shortener, secret: config.internalSecret, timeoutMs: config.upstreamTimeoutMs, log, observer })
  : undefined;

const lifecycle = new ServiceLifecycle(log, metrics);
const app = createApp({
  upstreams,
  buckets,
  rateLimits: config.rateLimits,
  clientOf: clientOfRequest(config.trustedProxies),
  // Every replica has INTERNAL_SECRET (compose sets it), so they agree on a client's password-try buckets.
  digestAddress: addressDigest(config.internalSecret),
  upstreamTimeoutMs: config.upstreamTimeoutMs,
  importMaxBytes: config.importMaxBytes,
  log,
  accessLog: config.accessLog,
  clock,
  accepting: lifecycle.accepting,
  // Down, the limits hold per gateway (their fallback): degraded, not unavailable.
  readiness: redis ? { "rate-limits": () => pingRedis(redis) } : {},
  web,
  redirectBatches,
  metrics: metrics.registry,
  observer,
});

lifecycle.serve(app, {
  port: config.port,
  hostname: config.hostname,
  maxBodyBytes: config.importMaxBytes,
  listening: {
    shortener: upstreams.shortener.replicas(),
    geocoder: upstreams.geocoder.replicas(),
    rate_limits: redis ? "redis" : "memory",
    redirects: redirectBatches ? "batched" : "proxied one by one (INTERNAL_SECRET not set)",
  },
  afterStop: [
    {
      name: "close upstreams and Redis",
      run: () => {
        upstreams.shortener.stop();
        upstreams.geocoder.stop();
        redis?.disconnect();
      },
    },
  ],
});
