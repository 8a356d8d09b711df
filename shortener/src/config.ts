import {
  type Env,
  type EnvReader,
  maxBulkItems,
  parseSecret,
  parseUrl,
  type ProxyPairVariables,
  readConfig,
  readProxyPairVariables,
  readServiceBasics,
  type ServiceBasics,
} from "@linkgeo/shared";
import { parseRateRule, type RateRule } from "@linkgeo/shared/rate-limit";
import { parseDomainList } from "./links/link-targets.ts";
import { parseThreatFeedPaths } from "./threats/threat-feeds.ts";
import { defaultRecheckSeconds, leastRecheckSeconds } from "./threats/threat-recheck.ts";
import { defaultDatabaseTimeoutMs } from "./database-deadline.ts";
import type { UnknownHosts } from "./domains/domain-directory.ts";
import { createAccesses, type CreateAccess } from "./people/request-workspace.ts";
import type { RedirectStatus } from "./links/link-options.ts";
import { defaultSqlitePath, parseDatabaseUrl, parseReadUrls, type DatabaseTarget } from "./storage/database-target.ts";
import { defaultReadMaxLagMs } from "./storage/postgres/read-replicas.ts";

export interface ShortenerConfig extends ServiceBasics, ProxyPairVariables {
  database: DatabaseTarget;
  /** How long one database call may take before the request is answered 503. */
  databaseTimeoutMs: number;
  /** Streaming replicas of the Postgres primary for the listing, exports and reports (DATABASE_READ_URL); none by default. */
  databaseReadUrls: string[];
  /** A replica further behind the primary than this is skipped. */
  databaseReadMaxLagMs: number;
  secretKey: string;
  /** True when ELYSIA_SECRET_KEY was absent and a random key was made (development only). */
  secretKeyGenerated: boolean;
  publicBaseUrl: URL | undefined;
  /** UNKNOWN_HOSTS: a request on a host no domain has is the default domain's (`default`), or a 404. */
  unknownHosts: UnknownHosts;
  /** CREATE_ACCESS: anyone may make a link (`anyone`), or only a credential's holder (`members`: docs/people.md). */
  createAccess: CreateAccess;
  /** RATE_LIMIT_WORKSPACE: what a workspace's members and keys may do together (people/workspace-budgets.ts); undefined: `off`. */
  workspaceRateLimit: RateRule | undefined;
  redirectStatus: RedirectStatus;
  /** Seconds a browser may keep a link's own 301 or 308 (Cache-Control max-age); its repeats are then not counted. */
  permanentRedirectMaxAgeSeconds: number;
  /** Refuse long URLs naming private addresses and private-network names. */
  blockPrivateTargets: boolean;
  /** Domains (and their subdomains) long URLs may not name. */
  blockedDomains: string[];
  /** THREAT_FEEDS: the files of threat feeds whose destinations are refused (threats/threat-feeds.ts). */
  threatFeeds: string[];
  /** THREAT_RECHECK_SECONDS: how often existing links are checked against the lists again (threats/threat-recheck.ts). */
  threatRecheckSeconds: number;
  /** Record each visit's referrer, country, browser, OS and device, and humans/bots per hour. */
  analytics: boolean;
  /** Hourly visit buckets of days older than this are folded into one per day. */
  analyticsHourlyDays: number;
}

/** DATABASE_URL: the service and createsuperuser read it here, so both name the same database. */
export function readDatabaseTarget(vars: EnvReader): DatabaseTarget {
  return vars.parsed("DATABASE_URL", parseDatabaseUrl) ?? { engine: "sqlite", path: defaultSqlitePath };
}

/** What `bun run createsuperuser` reads: the service's database, and the admin's name and password if given. */
export interface SuperuserCommandConfig {
  database: DatabaseTarget;
  username?: string;
  password?: string;
}

/** DATABASE_URL is read by the service's own reader (readDatabaseTarget), so both use the same database. */
export function readSuperuserCommandConfig(env: Env): SuperuserCommandConfig {
  return readConfig(env, (vars) => ({
    database: readDatabaseTarget(vars),
    username: vars.raw("SUPERUSER_USERNAME"),
    // Not trimmed like the other variables: spaces may be part of a password.
    password: env.SUPERUSER_PASSWORD || undefined,
  }));
}

/** The only place that knows the shortener's variable names. */
export function readShortenerConfig(env: Env): ShortenerConfig {
  return readConfig(env, (vars) => {
    const basics = readServiceBasics(vars, { port: 3001, redisKeyPrefix: "shortener:" });
    const secret = vars.parsed("ELYSIA_SECRET_KEY", parseSecret);
    if (vars.raw("ELYSIA_SECRET_KEY") === undefined && basics.production) vars.problem("ELYSIA_SECRET_KEY is required when NODE_ENV=production");
    const database = readDatabaseTarget(vars);
    return {
      ...basics,
      database,
      databaseTimeoutMs: vars.integer("DATABASE_TIMEOUT_MS", defaultDatabaseTimeoutMs, { min: 100, max: 60_000 }),
      ...readReplicaConfig(vars, database),
      secretKey: secret ?? Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url"),
      secretKeyGenerated: secret === undefined,
      publicBaseUrl: vars.parsed("PUBLIC_BASE_URL", (raw) => parseUrl(raw, ["http", "https"])),
      unknownHosts: readUnknownHosts(vars),
      createAccess: vars.oneOf("CREATE_ACCESS", createAccesses, "anyone") as CreateAccess,
      workspaceRateLimit: readWorkspaceRateLimit(vars),
      redirectStatus: Number(vars.oneOf("REDIRECT_STATUS", ["301", "302", "307", "308"], "302")) as RedirectStatus,
      permanentRedirectMaxAgeSeconds: vars.integer("PERMANENT_REDIRECT_MAX_AGE", 30, { min: 0, max: 31_536_000 }),
      blockPrivateTargets: vars.oneOf("BLOCK_PRIVATE_TARGETS", ["true", "false"], "false") === "true",
      blockedDomains: vars.parsed("BLOCKED_DOMAINS", parseDomainList) ?? [],
      threatFeeds: vars.parsed("THREAT_FEEDS", parseThreatFeedPaths) ?? [],
      threatRecheckSeconds: vars.integer("THREAT_RECHECK_SECONDS", defaultRecheckSeconds, { min: leastRecheckSeconds, max: 31_536_000 }),
      analytics: vars.oneOf("ANALYTICS", ["on", "off"], "on") === "on",
      analyticsHourlyDays: vars.integer("ANALYTICS_HOURLY_DAYS", 90, { min: 2, max: 36_500 }),
      ...readProxyPairVariables(vars),
    };
  });
}

/** RATE_LIMIT_WORKSPACE (default 1200/min): its burst must hold one bulk create's items, each a token, or a full bulk could never pass. */
function readWorkspaceRateLimit(vars: EnvReader): RateRule | undefined {
  const rule = vars.raw("RATE_LIMIT_WORKSPACE") === undefined ? defaultWorkspaceRateLimit : vars.parsed("RATE_LIMIT_WORKSPACE", parseRateRule);
  if (rule && rule.capacity < maxBulkItems) {
    vars.problem(`RATE_LIMIT_WORKSPACE needs a burst of at least ${maxBulkItems} (one full bulk create), like "600/min,burst=${maxBulkItems}"`);
  }
  return rule;
}

const defaultWorkspaceRateLimit = parseRateRule("1200/min")!;

/** UNKNOWN_HOSTS: with 404, only the default domain's host and the added ones are served, so the default domain's must be known. */
function readUnknownHosts(vars: EnvReader): UnknownHosts {
  const unknownHosts = vars.oneOf("UNKNOWN_HOSTS", ["default", "404"], "default") as UnknownHosts;
  if (unknownHosts === "404" && vars.raw("PUBLIC_BASE_URL") === undefined) {
    vars.problem("UNKNOWN_HOSTS=404 needs PUBLIC_BASE_URL: its host is the default domain's, the one host served besides the added domains");
  }
  return unknownHosts;
}

/** DATABASE_READ_URL and DATABASE_READ_MAX_LAG_MS: replicas of a Postgres primary only. */
function readReplicaConfig(vars: EnvReader, database: DatabaseTarget): { databaseReadUrls: string[]; databaseReadMaxLagMs: number } {
  const databaseReadUrls = vars.parsed("DATABASE_READ_URL", parseReadUrls) ?? [];
  if (databaseReadUrls.length > 0 && database.engine !== "postgres")
    vars.problem("DATABASE_READ_URL needs a postgres:// DATABASE_URL (replicas of a Postgres primary)");
  return { databaseReadUrls, databaseReadMaxLagMs: vars.integer("DATABASE_READ_MAX_LAG_MS", defaultReadMaxLagMs, { min: 0, max: 3_600_000 }) };
}

/** What `bun run import` reads: the database, and the rules long URLs are checked by, as the service has them. */
export interface ImportCommandConfig {
  database: DatabaseTarget;
  publicBaseUrl: URL | undefined;
  blockPrivateTargets: boolean;
  blockedDomains: string[];
  threatFeeds: string[];
}

export function readImportCommandConfig(env: Env): ImportCommandConfig {
  return readConfig(env, (vars) => ({
    database: readDatabaseTarget(vars),
    publicBaseUrl: vars.parsed("PUBLIC_BASE_URL", (raw) => parseUrl(raw, ["http", "https"])),
    blockPrivateTargets: vars.oneOf("BLOCK_PRIVATE_TARGETS", ["true", "false"], "false") === "true",
    blockedDomains: vars.parsed("BLOCKED_DOMAINS", parseDomainList) ?? [],
    threatFeeds: vars.parsed("THREAT_FEEDS", parseThreatFeedPaths) ?? [],
  }));
}
