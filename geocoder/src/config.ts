import {
  type Env,
  type EnvReader,
  type IpRange,
  maxJobPoints,
  parseSecret,
  parseUrl,
  readConfig,
  readServiceBasics,
  readTrustedProxies,
  type ServiceBasics,
} from "@linkgeo/shared";
import { dirname, join } from "node:path";

export interface KeyedProviderConfig {
  apiKey: string;
  /** The reverse endpoint; the provider's public one unless overridden. */
  url?: string;
}

export interface NominatimConfig {
  userAgent: string;
  url?: string;
}

export interface ReplicaConfig {
  /** n of NOMINATIM_REVERSER_REPLICA_URL_<n>. */
  number: number;
  url: string;
}

/**
 * The entries of the default order (GEOCODER_DEFAULT_ORDER): a provider kind, or all replicas (balanced).
 * As listed, the default: LOCAL last, since it always answers but knows no streets, so any network provider
 * that answers is better.
 */
export const orderEntries = ["REPLICAS", "NOMINATIM", "GEOAPIFY", "HERE", "LOCAL"] as const;
export type OrderEntry = (typeof orderEntries)[number];

export interface GeocoderConfig extends ServiceBasics {
  geoapify: KeyedProviderConfig | undefined;
  here: KeyedProviderConfig | undefined;
  nominatim: NominatimConfig | undefined;
  replicas: ReplicaConfig[];
  /** The in-process provider from bundled open data (GEOCODER_LOCAL, default on). */
  local: boolean;
  defaultOrder: OrderEntry[];
  providerTimeoutMs: number;
  /** The whole provider chain's time; at least providerTimeoutMs. */
  chainTimeoutMs: number;
  /** Requests per second per provider name; absent: no limit of ours. */
  rateLimits: Record<string, number>;
  cachePath: string;
  l2TtlDays: number;
  /** How long both cache levels keep a fallback answer (LOCAL standing in for failed network providers). */
  fallbackTtlSeconds: number;
  /** Where jobs are kept: Postgres when GEOCODER_JOBS_DATABASE_URL is set (replicas on many machines), else a SQLite file beside L2. */
  jobs: { engine: "postgres"; url: string } | { engine: "sqlite"; path: string };
  /** How long a finished or cancelled job and its results are kept. */
  jobTtlHours: number;
  /** A replica's points of jobs in flight at once (each waits for its provider's rate limit). */
  jobPointsInFlight: number;
  /** How long a dead replica's points of a job wait before another replica takes them. */
  jobLeaseMs: number;
  /** How much a client's jobs, and all jobs, may hold (jobs/job-quota.ts: JobQuota). */
  jobQuota: { clientPoints: number; clientBytes: number; storeBytes: number; diskFloorBytes: number };
  /** GEOCODER_JOBS_SECRET: keys the digest of a client's address kept with its jobs; absent, a random one per process. */
  jobsSecret: string | undefined;
  /** TRUSTED_PROXIES: the proxies (the gateway) whose X-Forwarded-For names a job's client. */
  trustedProxies: IpRange[];
}

const replicaVariable = /^NOMINATIM_REVERSER_REPLICA_URL_(\d+)$/;

/** The only place that knows the geocoder's variable names. */
export function readGeocoderConfig(env: Env): GeocoderConfig {
  return readConfig(env, (vars) => {
    const basics = readServiceBasics(vars, { port: 3002, redisKeyPrefix: "geocoder:" });
    const httpUrl = (name: string) => vars.parsed(name, (raw) => parseUrl(raw, ["http", "https"]).toString());
    const geoapifyKey = vars.raw("GEOAPIFY_API_KEY");
    const hereKey = vars.raw("HERE_API_KEY");
    const userAgent = vars.raw("NOMINATIM_USER_AGENT");
    const nominatimUrl = httpUrl("NOMINATIM_URL");
    const cachePath = vars.string("GEOCODER_CACHE_PATH", "./data/geocoder-cache.db");
    return {
      ...basics,
      geoapify: geoapifyKey ? { apiKey: geoapifyKey, url: httpUrl("GEOAPIFY_URL") } : undefined,
      here: hereKey ? { apiKey: hereKey, url: httpUrl("HERE_URL") } : undefined,
      nominatim: userAgent ? { userAgent, url: nominatimUrl } : undefined,
      replicas: readReplicas(vars, env),
      local: vars.oneOf("GEOCODER_LOCAL", ["true", "false"], "true") === "true",
      defaultOrder: vars.parsed("GEOCODER_DEFAULT_ORDER", parseOrder) ?? [...orderEntries],
      ...readTimeouts(vars),
      rateLimits: readRateLimits(vars, nominatimUrl),
      cachePath,
      l2TtlDays: vars.integer("GEOCODER_L2_TTL_DAYS", 30, { min: 1, max: 3650 }),
      // At most a day: longer would outlive L1's own 24 hours, and a fallback never gets more than a real answer.
      fallbackTtlSeconds: vars.integer("GEOCODER_FALLBACK_TTL_SECONDS", 300, { min: 1, max: 86_400 }),
      jobs: readJobStore(vars, cachePath),
      jobTtlHours: vars.integer("GEOCODER_JOB_TTL_HOURS", 168, { min: 1, max: 8_760 }),
      jobPointsInFlight: vars.integer("GEOCODER_JOB_POINTS_IN_FLIGHT", 4, { min: 1, max: 64 }),
      jobLeaseMs: vars.integer("GEOCODER_JOB_LEASE_SECONDS", 30, { min: 1, max: 3_600 }) * 1_000,
      jobQuota: readJobQuota(vars),
      jobsSecret: vars.parsed("GEOCODER_JOBS_SECRET", parseSecret),
      trustedProxies: readTrustedProxies(vars),
    };
  });
}

/**
 * Postgres for jobs when its URL is set, so replicas on several machines
 * share them; else a SQLite file, by default beside L2's (replicas of one
 * machine share it).
 */
function readJobStore(vars: EnvReader, cachePath: string): GeocoderConfig["jobs"] {
  const url = vars.parsed("GEOCODER_JOBS_DATABASE_URL", (raw) => parseUrl(raw, ["postgres", "postgresql"]).toString());
  if (url) return { engine: "postgres", url };
  const besideCache = cachePath === ":memory:" ? ":memory:" : join(dirname(cachePath), "geocoder-jobs.db");
  return { engine: "sqlite", path: vars.string("GEOCODER_JOBS_PATH", besideCache) };
}

const mib = 1024 * 1024;

/**
 * The jobs' quotas. A client may have 200,000 points waiting (two full
 * jobs: one running, the next queued) and keep 1 GiB of jobs (8 running
 * of 100,000 points, about 12 answered, for GEOCODER_JOB_TTL_HOURS); all
 * jobs together 10 GiB; a SQLite store keeps 1 GiB of its disk free. A
 * client's points may not be fewer than one full job's, nor its bytes
 * fewer than 256 MiB (the largest job is charged about 160 MiB), nor the
 * store's fewer than one client's.
 */
function readJobQuota(vars: EnvReader): GeocoderConfig["jobQuota"] {
  const problemsBefore = vars.problems.length;
  const clientPoints = vars.integer("GEOCODER_JOB_CLIENT_MAX_POINTS", 200_000, { min: maxJobPoints, max: 100_000_000 });
  const clientMib = vars.integer("GEOCODER_JOB_CLIENT_MAX_MIB", 1_024, { min: 256, max: 1_048_576 });
  const storeMib = vars.integer("GEOCODER_JOBS_MAX_MIB", 10_240, { min: 256, max: 16_777_216 });
  const freeMib = vars.integer("GEOCODER_JOBS_MIN_FREE_MIB", 1_024, { min: 0, max: 1_048_576 });
  // Compared only when both were read: a bad one has already been reported.
  if (vars.problems.length === problemsBefore && storeMib < clientMib) {
    vars.problem(`GEOCODER_JOBS_MAX_MIB (${storeMib}) must be at least GEOCODER_JOB_CLIENT_MAX_MIB (${clientMib}): one client's jobs must fit in the store`);
  }
  return { clientPoints, clientBytes: clientMib * mib, storeBytes: storeMib * mib, diskFloorBytes: freeMib * mib };
}

function readReplicas(vars: EnvReader, env: Env): ReplicaConfig[] {
  const replicas: ReplicaConfig[] = [];
  for (const name of Object.keys(env)) {
    const match = replicaVariable.exec(name);
    if (!match) continue;
    const number = Number(match[1]);
    const url = vars.parsed(name, (raw) => parseUrl(raw, ["http", "https"]).toString());
    if (number < 1) vars.problem(`${name}: replicas are numbered from 1`);
    else if (url) replicas.push({ number, url });
  }
  return replicas.sort((a, b) => a.number - b.number);
}

/**
 * A provider call's budget, and the whole chain's. The chain's default stays
 * below the gateway's UPSTREAM_TIMEOUT_MS default (10 s), so LOCAL answers
 * before the gateway gives up. It may not be shorter than one call's: a
 * chain that aborts its first provider before that provider's own timeout
 * never lets the provider fail, so a hanging one would never leave rotation.
 */
function readTimeouts(vars: EnvReader): { providerTimeoutMs: number; chainTimeoutMs: number } {
  const problemsBefore = vars.problems.length;
  const providerTimeoutMs = vars.integer("GEOCODER_PROVIDER_TIMEOUT_MS", 5000, { min: 100, max: 60_000 });
  const chainTimeoutMs = vars.integer("GEOCODER_CHAIN_TIMEOUT_MS", 8000, { min: 100, max: 300_000 });
  // Compared only when both were read: a bad one has already been reported.
  if (vars.problems.length === problemsBefore && chainTimeoutMs < providerTimeoutMs) {
    vars.problem(
      `GEOCODER_CHAIN_TIMEOUT_MS (${chainTimeoutMs}) must be at least GEOCODER_PROVIDER_TIMEOUT_MS (${providerTimeoutMs}): the first provider asked gets its whole budget`,
    );
  }
  return { providerTimeoutMs, chainTimeoutMs };
}

function parseOrder(raw: string): OrderEntry[] {
  const entries = raw
    .split(",")
    .map((entry) => entry.trim().toUpperCase())
    .filter(Boolean);
  const unknown = entries.filter((entry) => !(orderEntries as readonly string[]).includes(entry));
  if (unknown.length > 0) throw new Error(`has unknown entries ${unknown.join(", ")}: use ${orderEntries.join(", ")}`);
  if (new Set(entries).size !== entries.length) throw new Error("names an entry twice");
  if (entries.length === 0) throw new Error(`must name at least one of ${orderEntries.join(", ")}`);
  return entries as OrderEntry[];
}

/**
 * Our own limit per provider, in requests per second, shared by all replicas
 * through Redis. The public Nominatim allows at most 1 per second (its usage
 * policy); a self-hosted one (NOMINATIM_URL) and replicas have none unless set.
 */
function readRateLimits(vars: EnvReader, nominatimUrl: string | undefined): Record<string, number> {
  const perSecond = (name: string, fallback: number | undefined) =>
    vars.parsed(name, (raw) => {
      const value = Number(raw);
      if (!/^\d+(\.\d+)?$/.test(raw) || value <= 0 || value > 10_000) throw new Error("must be requests per second, a number above 0");
      return value;
    }) ?? fallback;
  const limits: Record<string, number | undefined> = {
    NOMINATIM: perSecond("NOMINATIM_RATE_LIMIT", nominatimUrl ? undefined : 1),
    GEOAPIFY: perSecond("GEOAPIFY_RATE_LIMIT", 5),
    HERE: perSecond("HERE_RATE_LIMIT", 5),
  };
  return Object.fromEntries(Object.entries(limits).filter((entry): entry is [string, number] => entry[1] !== undefined));
}
