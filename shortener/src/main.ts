import { ConfigError, createLogger, describeError, onShutdownSignal } from "@linkgeo/shared";
import Redis from "ioredis";
import { createApp } from "./app.ts";
import { FailSoftLinkCache } from "./cache/fail-soft-link-cache.ts";
import type { LinkCache } from "./cache/link-cache.ts";
import { MemoryLinkCache } from "./cache/memory-link-cache.ts";
import { RedisLinkCache } from "./cache/redis-link-cache.ts";
import { readShortenerConfig, type ShortenerConfig } from "./config.ts";
import { openDatabase } from "./storage/open-database.ts";
import { VisitCounter } from "./visits/visit-counter.ts";

let config: ShortenerConfig;
try {
  config = readShortenerConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  for (const problem of error.problems) console.error(`shortener: ${problem}`);
  process.exit(1);
}

const log = createLogger({ service: "shortener", level: config.logLevel, format: config.logFormat });
if (config.secretKeyGenerated) log.warn("ELYSIA_SECRET_KEY is not set: using a random key, admin tokens will not survive a restart");

const database = await openDatabase(config.database).catch((error) => {
  log.error("cannot open the database", { engine: config.database.engine, error: describeError(error) });
  process.exit(1);
});
log.info("database ready", { engine: database.engine });

// ioredis reconnects by itself; while it is down, commands fail at once
// (no offline queue) and the cache falls back to the database.
const redis = config.redis
  ? new Redis(config.redis.url, {
      db: config.redis.db,
      keyPrefix: config.redisKeyPrefix,
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      maxRetriesPerRequest: 1,
      commandTimeout: 500,
    })
  : undefined;
redis?.on("error", () => {}); // Logged, throttled, by FailSoftLinkCache when a command fails.
const cache: LinkCache = redis ? new RedisLinkCache(redis) : new MemoryLinkCache();

const clock = () => new Date();
const visits = new VisitCounter(database.links, clock);
let accepting = true;

const app = createApp({
  links: database.links,
  admins: database.admins,
  cache: new FailSoftLinkCache(cache, log),
  visits,
  clock,
  log,
  secretKey: config.secretKey,
  publicBaseUrl: config.publicBaseUrl,
  redirectStatus: config.redirectStatus,
  accessLog: config.accessLog,
  readiness: { required: { database: () => database.ping() }, optional: redis ? { cache: () => cache.ping() } : {} },
  accepting: () => accepting,
}).listen({ port: config.port, hostname: config.hostname, maxRequestBodySize: 1024 * 1024 });

log.info("listening", { url: `http://${config.hostname}:${app.server?.port}`, cache: redis ? "redis" : "memory" });

onShutdownSignal(log, [
  { name: "stop taking requests", run: async () => { accepting = false; await app.server?.stop(); } },
  { name: "write pending visits", run: () => visits.drain() },
  { name: "close the cache", run: async () => { redis?.disconnect(); } },
  { name: "close the database", run: () => database.close() },
]);
