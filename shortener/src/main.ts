import { beginService, openServiceRedis, describeError, ServiceLifecycle, startServiceMetrics } from "@linkgeo/shared";
import { networkInterfaces } from "node:os";
import { createApp } from "./app.ts";
import { shortenerMetrics } from "./shortener-metrics.ts";
import { FailSoftLinkCache } from "./cache/fail-soft-link-cache.ts";
import type { LinkCache } from "./cache/link-cache.ts";
import { MemoryLinkCache } from "./cache/memory-link-cache.ts";
import { RedisLinkCache } from "./cache/redis-link-cache.ts";
import { MemoryTokenBuckets, RedisTokenBuckets } from "@linkgeo/shared/rate-limit";
import { WorkspaceBudgets } from "./people/workspace-budgets.ts";
import { readShortenerConfig } from "./config.ts";
import { openDatabase } from "./storage/open-database.ts";
import { databaseWhere } from "./storage/database-target.ts";
import { ApiKeys } from "./auth/api-keys.ts";
import { VisitCounter } from "./visits/visit-counter.ts";
import { loadIpCountries } from "./visits/load-ip-countries.ts";
import { describeVisitorWith } from "./visits/describe-visitor.ts";
import { VisitClassifier } from "./visits/visit-classifier.ts";
import { OrphanVisits } from "./visits/orphan-visits.ts";
import { startVisitLogSumming } from "./visits/visit-log-summing.ts";
import { startVisitRetention } from "./visits/visit-retention.ts";
import { ThreatFeeds } from "./threats/threat-feeds.ts";
import type { ThreatRecheck } from "./threats/threat-recheck.ts";

const { config, log } = beginService("shortener", readShortenerConfig);
if (config.secretKeyGenerated) log.warn("ELYSIA_SECRET_KEY is not set: using a random key, admin tokens will not survive a restart");

const database = await openDatabase(config.database, {
  timeoutMs: config.databaseTimeoutMs,
  readUrls: config.databaseReadUrls,
  readMaxLagMs: config.databaseReadMaxLagMs,
  log,
}).catch((error) => {
  log.error("cannot open the database", { engine: config.database.engine, at: databaseWhere(config.database), error: describeError(error) });
  process.exit(1);
});
log.info("database ready", { engine: database.engine });

// While Redis is down the cache falls back to the database.
const redis = openServiceRedis(config, log);
const cache: LinkCache = redis ? new RedisLinkCache(redis) : new MemoryLinkCache();
// Shared by the replicas through the same Redis; per process while it is away, or without it.
const workspaceBudgets = new WorkspaceBudgets(
  redis ? new RedisTokenBuckets(redis, { processName: "shortener", log }) : new MemoryTokenBuckets(),
  config.workspaceRateLimit,
);

// Loaded once, before the first request, for analytics and for the links' rules by device and country. With analytics
// on, a missing or broken data file stops the start (better than wrong countries); off, rules by country never match.
const visitClassifier = classifierWithCountries(config.analytics);
const describeVisitor = visitClassifier && describeVisitorWith(visitClassifier, config.trustedProxies);

const clock = () => new Date();
const metrics = startServiceMetrics({ service: "shortener", port: config.metricsPort, hostname: config.hostname, log });
const observer = metrics.registry && shortenerMetrics(metrics.registry);

// Read before the first request, so a listed destination is refused from the start; then kept current.
const threats = config.threatFeeds.length > 0 ? new ThreatFeeds({ paths: config.threatFeeds, log, observer }) : undefined;
await threats?.start();
const visits = new VisitCounter(database.links, clock, {
  timeoutMs: config.databaseTimeoutMs,
  describe: config.analytics ? describeVisitor : undefined,
  observer,
});
// Fed only with the analytics on: a redirect comes with its visitor then.
const orphans = new OrphanVisits({ store: database.orphans, clock, log });
const apiKeys = new ApiKeys({ store: database.apiKeys, clock, log });
const lifecycle = new ServiceLifecycle(log, metrics);
// The pass over existing links against the threat lists (docs/abuse.md), which createApp builds.
let recheck: ThreatRecheck | undefined;

const app = createApp({
  links: database.links,
  admins: database.admins,
  sessions: database.sessions,
  visitStore: database.visits,
  cache: new FailSoftLinkCache(cache, log, observer),
  visits,
  orphans,
  orphanStore: database.orphans,
  apiKeys,
  domainStore: database.domains,
  allowStore: database.allowList,
  reportStore: database.reports,
  threatRecheck: {
    store: database.recheck,
    everyMs: config.threatRecheckSeconds * 1000,
    started: (pass) => {
      recheck = pass;
      pass.start();
    },
  },
  peopleStore: database.people,
  workspaceStore: database.workspaces,
  auditStore: database.audit,
  clock,
  log,
  secretKey: config.secretKey,
  secureCookies: config.production,
  publicBaseUrl: config.publicBaseUrl,
  unknownHosts: config.unknownHosts,
  createAccess: config.createAccess,
  workspaceBudgets,
  threats,
  linkTargets: {
    blockPrivate: config.blockPrivateTargets,
    blockedDomains: config.blockedDomains,
    // A replica's own address, as the gateway reaches it, is this service too.
    ownAddresses: Object.values(networkInterfaces()).flatMap((addresses) => (addresses ?? []).map((a) => a.address)),
  },
  redirectStatus: config.redirectStatus,
  permanentRedirectMaxAgeSeconds: config.permanentRedirectMaxAgeSeconds,
  describeVisitor,
  internalSecret: config.internalSecret,
  importMaxBytes: config.importMaxBytes,
  accessLog: config.accessLog,
  readiness: {
    required: { database: () => database.ping() },
    optional: { ...database.readReplicaChecks, ...(redis ? { cache: () => cache.ping() } : {}) },
  },
  trustedProxies: config.trustedProxies,
  accepting: lifecycle.accepting,
  metrics: metrics.registry,
  observer,
});

const retention = startVisitRetention({ store: database.visits, hourlyDays: config.analyticsHourlyDays, clock, log });
const visitLogSumming = startVisitLogSumming({ store: database.visits, log });

lifecycle.serve(app, {
  port: config.port,
  hostname: config.hostname,
  listening: { cache: redis ? "redis" : "memory" },
  maxBodyBytes: config.importMaxBytes,
  afterStop: [
    { name: "write pending visits", run: () => visits.drain() },
    { name: "write pending visits that led nowhere", run: () => orphans.drain() },
    { name: "write the API keys' last uses", run: () => apiKeys.drain() },
    { name: "stop folding visit hours", run: () => retention.stop() },
    { name: "stop the threat recheck", run: () => recheck?.stop() },
    { name: "stop summing the visit log", run: () => visitLogSumming.stop() },
    {
      name: "close the cache",
      run: async () => {
        redis?.disconnect();
      },
    },
    { name: "close the database", run: () => database.close() },
  ],
});

function classifierWithCountries(required: boolean): VisitClassifier | undefined {
  try {
    const loaded = loadIpCountries();
    log.info(required ? "visit analytics on" : "visit analytics off; countries for link rules", {
      countries: loaded.dataset,
      built: loaded.builtAt.toISOString().slice(0, 10),
      ms: loaded.loadMs,
    });
    return new VisitClassifier({ countries: loaded.countries });
  } catch (error) {
    if (!required) {
      log.warn("cannot load the IP-to-country data: link rules by device and country will not match", { error: describeError(error) });
      return undefined;
    }
    log.error("cannot load the IP-to-country data (ANALYTICS=off starts without it)", { error: describeError(error) });
    process.exit(1);
  }
}
