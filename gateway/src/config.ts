import { defaultEjectMs } from "./upstreams/upstream-pool.ts";
import {
  maxBatchPoints,
  type Env,
  type EnvReader,
  parseUrl,
  type ProxyPairVariables,
  readConfig,
  readProxyPairVariables,
  readServiceBasics,
  type ServiceBasics,
} from "@linkgeo/shared";
import { parseRateRule, type RateRule } from "@linkgeo/shared/rate-limit";

export interface GatewayConfig extends ServiceBasics, ProxyPairVariables {
  /** Replicas; a host name that resolves to several addresses counts as that many. */
  shortenerUrls: string[];
  geocoderUrls: string[];
  /** Total time for one proxied request, retries included. */
  upstreamTimeoutMs: number;
  /** How often host names of upstreams are resolved again (compose --scale). */
  dnsRefreshMs: number;
  /** How long a replica that refused or dropped a connection is left out of the rotation. */
  upstreamEjectMs: number;
  /**
   * Per client address (`loginPerUser`: per admin username; `unlock`: per
   * protected link and client address; `unlockPerLink`: per protected link;
   * `key`: per API key; `badKey`: the answers refusing a key, per client
   * address; `geocodePoints`: a geocoding batch's points, per client
   * address; `misses`: redirects that found no link, per client address);
   * undefined: unlimited (`key`: keys spend their address's budget;
   * `badKey`: a refused key costs nothing).
   */
  rateLimits: {
    create: RateRule | undefined;
    bulk: RateRule | undefined;
    api: RateRule | undefined;
    redirect: RateRule | undefined;
    misses: RateRule | undefined;
    login: RateRule | undefined;
    loginPerUser: RateRule | undefined;
    unlock: RateRule | undefined;
    unlockPerLink: RateRule | undefined;
    key: RateRule | undefined;
    badKey: RateRule | undefined;
    geocodePoints: RateRule | undefined;
  };
}

/** The only place that knows the gateway's variable names. */
export function readGatewayConfig(env: Env): GatewayConfig {
  return readConfig(env, (vars) => {
    const basics = readServiceBasics(vars, { port: 8080, redisKeyPrefix: "gateway:" });
    return {
      ...basics,
      shortenerUrls: vars.parsed("SHORTENER_URL", parseUrlList) ?? ["http://127.0.0.1:3001"],
      geocoderUrls: vars.parsed("GEOCODER_URL", parseUrlList) ?? ["http://127.0.0.1:3002"],
      upstreamTimeoutMs: vars.integer("UPSTREAM_TIMEOUT_MS", 10_000, { min: 100, max: 300_000 }),
      dnsRefreshMs: vars.integer("UPSTREAM_DNS_REFRESH_MS", 5_000, { min: 500, max: 600_000 }),
      upstreamEjectMs: vars.integer("UPSTREAM_EJECT_MS", defaultEjectMs, { min: 100, max: 600_000 }),
      rateLimits: {
        create: rule(vars, "RATE_LIMIT_CREATE", { capacity: 20, perSecond: 20 / 60 }),
        // Requests of up to 1,000 links each: 5 at once, refilled at 30 an hour ("30/hour,burst=5").
        bulk: rule(vars, "RATE_LIMIT_BULK", { capacity: 5, perSecond: 30 / 3600 }),
        api: rule(vars, "RATE_LIMIT_API", { capacity: 120, perSecond: 2 }),
        redirect: rule(vars, "RATE_LIMIT_REDIRECT", undefined),
        // Unknown codes a client may ask for: 100 at once, refilled at 600 an hour ("600/hour,burst=100").
        misses: rule(vars, "RATE_LIMIT_MISSES", { capacity: 100, perSecond: 100 / 600 }),
        // The longest a guess waits once half of the misses are spent; 0: refused without slowing first.
        missesSlowdownMs: vars.integer("RATE_LIMIT_MISSES_SLOWDOWN_MS", 1_000, { min: 0, max: 10_000 }),
        login: rule(vars, "RATE_LIMIT_LOGIN", { capacity: 10, perSecond: 10 / 60 }),
        loginPerUser: rule(vars, "RATE_LIMIT_LOGIN_USER", { capacity: 10, perSecond: 30 / 3600 }),
        // 10 tries, refilled over 15 minutes ("40/hour,burst=10").
        unlock: rule(vars, "RATE_LIMIT_UNLOCK", { capacity: 10, perSecond: 10 / 900 }),
        unlockPerLink: rule(vars, "RATE_LIMIT_UNLOCK_LINK", { capacity: 100, perSecond: 100 / 3600 }),
        // A program's budget: five times an address's burst, at 10/s ("600/min").
        key: rule(vars, "RATE_LIMIT_KEY", { capacity: 600, perSecond: 10 }),
        // 10 refused keys at once, then one every 2 minutes ("30/hour,burst=10").
        badKey: rule(vars, "RATE_LIMIT_BAD_KEY", { capacity: 10, perSecond: 30 / 3600 }),
        // Points of geocoding batches: ten full batches at once, refilled at 3,000 a minute ("3000/min,burst=10000").
        geocodePoints: pointsRule(vars),
      },
      ...readProxyPairVariables(vars),
    };
  });
}

function parseUrlList(raw: string): string[] {
  const urls = raw
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  if (urls.length === 0) throw new Error("must name at least one URL");
  return urls.map((url) => parseUrl(url, ["http", "https"]).origin);
}

function rule(vars: EnvReader, name: string, fallback: RateRule | undefined): RateRule | undefined {
  return vars.raw(name) === undefined ? fallback : vars.parsed(name, parseRateRule);
}

/** RATE_LIMIT_GEOCODE_POINTS: its burst must hold one full batch, or a batch of 1,000 points could never pass. */
function pointsRule(vars: EnvReader): RateRule | undefined {
  const points = rule(vars, "RATE_LIMIT_GEOCODE_POINTS", { capacity: 10_000, perSecond: 50 });
  if (points && points.capacity < maxBatchPoints) {
    vars.problem(`RATE_LIMIT_GEOCODE_POINTS needs a burst of at least ${maxBatchPoints} (one full batch), like "3000/min,burst=${maxBatchPoints}"`);
  }
  return points;
}
