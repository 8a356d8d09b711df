import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { parseIpRangeList } from "@linkgeo/shared";
import { configProblems } from "@linkgeo/testing";
import { readShortenerConfig } from "../src/config.ts";

// SQLite paths are the shortener folder's, whatever folder a command runs in (the root's `bun run createsuperuser`).
const shortenerFolder = join(import.meta.dir, "..");

describe("shortener configuration", () => {
  test("runs with embedded defaults when nothing is set", () => {
    const config = readShortenerConfig({});
    expect(config).toMatchObject({
      port: 3001,
      database: { engine: "sqlite", path: join(shortenerFolder, "data/shortener.db") },
      redis: undefined,
      redirectStatus: 302,
      production: false,
      logFormat: "pretty",
      secretKeyGenerated: true,
    });
    expect(config.secretKey.length).toBeGreaterThanOrEqual(32);
  });

  test("reads Postgres, Redis with its database number, and the public origin", () => {
    const config = readShortenerConfig({
      DATABASE_URL: "postgres://app:secret@db:5432/shortener",
      REDIS_URL: "redis://cache:6379/1",
      PUBLIC_BASE_URL: "https://sho.rt",
      REDIRECT_STATUS: "301",
      PORT: "4000",
    });
    expect(config.database).toEqual({ engine: "postgres", url: "postgres://app:secret@db:5432/shortener" });
    expect(config.redis).toEqual({ url: "redis://cache:6379/1", db: 1 });
    expect(config.publicBaseUrl?.origin).toBe("https://sho.rt");
    expect(config.redirectStatus).toBe(301);
    expect(config.port).toBe(4000);
  });

  test("DATABASE_TIMEOUT_MS: 3 s by default, from 100 ms to 60 s", () => {
    expect(readShortenerConfig({}).databaseTimeoutMs).toBe(3000);
    expect(readShortenerConfig({ DATABASE_TIMEOUT_MS: "500" }).databaseTimeoutMs).toBe(500);
    expect(configProblems(readShortenerConfig, { DATABASE_TIMEOUT_MS: "50" })).toEqual([
      'DATABASE_TIMEOUT_MS must be a whole number from 100 to 60000 (got "50")',
    ]);
  });

  test("DATABASE_READ_URL: no replicas by default; a comma list of postgres:// URLs beside a Postgres primary, never echoed; a 1 s lag bound", () => {
    expect(readShortenerConfig({})).toMatchObject({ databaseReadUrls: [], databaseReadMaxLagMs: 1_000 });
    const primary = "postgres://app:pw@primary:5432/linkgeo";
    expect(
      readShortenerConfig({
        DATABASE_URL: primary,
        DATABASE_READ_URL: "postgres://app:pw@replica-1/linkgeo, postgresql://app:pw@replica-2:5433/linkgeo",
        DATABASE_READ_MAX_LAG_MS: "250",
      }),
    ).toMatchObject({ databaseReadUrls: ["postgres://app:pw@replica-1/linkgeo", "postgresql://app:pw@replica-2:5433/linkgeo"], databaseReadMaxLagMs: 250 });
    expect(
      configProblems(readShortenerConfig, { DATABASE_URL: primary, DATABASE_READ_URL: "postgres://app:secret-pw@replica/linkgeo,sqlite:///r.db" }),
    ).toEqual(["DATABASE_READ_URL must be a comma list of postgres://user:pass@host:port/db (entry 2 is not)"]);
    expect(configProblems(readShortenerConfig, { DATABASE_URL: primary, DATABASE_READ_URL: "postgres://app:secret-pw@replica" })).toEqual([
      "DATABASE_READ_URL must be a comma list of postgres://user:pass@host:port/db (entry 1 is not)",
    ]);
    expect(configProblems(readShortenerConfig, { DATABASE_READ_URL: "postgres://app:secret-pw@replica/linkgeo" })).toEqual([
      "DATABASE_READ_URL needs a postgres:// DATABASE_URL (replicas of a Postgres primary)",
    ]);
    expect(configProblems(readShortenerConfig, { DATABASE_URL: primary, DATABASE_READ_MAX_LAG_MS: "-1" })).toEqual([
      'DATABASE_READ_MAX_LAG_MS must be a whole number from 0 to 3600000 (got "-1")',
    ]);
  });

  test("analytics on, 90 days of hours, this machine as the trusted proxy, unless told otherwise", () => {
    expect(readShortenerConfig({})).toMatchObject({ analytics: true, analyticsHourlyDays: 90, trustedProxies: parseIpRangeList("127.0.0.1/8, ::1/128") });
    expect(readShortenerConfig({ ANALYTICS: "off", ANALYTICS_HOURLY_DAYS: "30", TRUSTED_PROXIES: "10.0.0.0/8" })).toMatchObject({
      analytics: false,
      analyticsHourlyDays: 30,
      trustedProxies: parseIpRangeList("10.0.0.0/8"),
    });
    expect(configProblems(readShortenerConfig, { ANALYTICS: "yes", ANALYTICS_HOURLY_DAYS: "1", TRUSTED_PROXIES: "999.0.0.1" })).toEqual([
      'ANALYTICS must be one of on, off (got "yes")',
      'ANALYTICS_HOURLY_DAYS must be a whole number from 2 to 36500 (got "1")',
      'TRUSTED_PROXIES has "999.0.0.1", which is not an IP address or CIDR range',
    ]);
  });

  test("serves a host no domain has as the default domain, unless UNKNOWN_HOSTS=404, which needs PUBLIC_BASE_URL", () => {
    expect(readShortenerConfig({})).toMatchObject({ unknownHosts: "default" });
    expect(readShortenerConfig({ UNKNOWN_HOSTS: "404", PUBLIC_BASE_URL: "https://sho.rt" })).toMatchObject({ unknownHosts: "404" });
    expect(configProblems(readShortenerConfig, { UNKNOWN_HOSTS: "404" })).toEqual([
      "UNKNOWN_HOSTS=404 needs PUBLIC_BASE_URL: its host is the default domain's, the one host served besides the added domains",
    ]);
    expect(configProblems(readShortenerConfig, { UNKNOWN_HOSTS: "drop" })).toEqual(['UNKNOWN_HOSTS must be one of default, 404 (got "drop")']);
  });

  test("blocks nothing more than loopback and itself unless asked", () => {
    expect(readShortenerConfig({})).toMatchObject({ blockPrivateTargets: false, blockedDomains: [] });
    expect(readShortenerConfig({ BLOCK_PRIVATE_TARGETS: "true", BLOCKED_DOMAINS: "Evil.Example, spam.example." })).toMatchObject({
      blockPrivateTargets: true,
      blockedDomains: ["evil.example", "spam.example"],
    });
  });

  test("refuses a bad BLOCK_PRIVATE_TARGETS or BLOCKED_DOMAINS at start", () => {
    expect(configProblems(readShortenerConfig, { BLOCK_PRIVATE_TARGETS: "yes", BLOCKED_DOMAINS: "evil.example/x" })).toEqual([
      'BLOCK_PRIVATE_TARGETS must be one of true, false (got "yes")',
      'BLOCKED_DOMAINS has "evil.example/x", which is not a domain name',
    ]);
  });

  test("THREAT_FEEDS names files that are there; none by default", () => {
    const feed = join(import.meta.dir, "fixtures/threat-feeds/hosts.txt");
    expect(readShortenerConfig({}).threatFeeds).toEqual([]);
    expect(readShortenerConfig({ THREAT_FEEDS: feed }).threatFeeds).toEqual([feed]);
    expect(configProblems(readShortenerConfig, { THREAT_FEEDS: "/no/such/feed.txt" })).toEqual([
      'THREAT_FEEDS has "/no/such/feed.txt", which is not a file this service can read',
    ]);
  });

  test("THREAT_RECHECK_SECONDS: hourly by default, at least 10", () => {
    expect(readShortenerConfig({}).threatRecheckSeconds).toBe(3600);
    expect(readShortenerConfig({ THREAT_RECHECK_SECONDS: "10" }).threatRecheckSeconds).toBe(10);
    expect(configProblems(readShortenerConfig, { THREAT_RECHECK_SECONDS: "9" })).toEqual([
      'THREAT_RECHECK_SECONDS must be a whole number from 10 to 31536000 (got "9")',
    ]);
  });

  test.each([
    ["sqlite:///data/links.db", join(shortenerFolder, "data/links.db")],
    ["sqlite:///../links.db", join(shortenerFolder, "../links.db")],
    ["sqlite:////var/lib/links.db", "/var/lib/links.db"],
    ["sqlite:///:memory:", ":memory:"],
  ])("reads %p as the SQLite file %p", (url, path) => {
    expect(readShortenerConfig({ DATABASE_URL: url }).database).toEqual({ engine: "sqlite", path });
  });

  test("reports every bad variable at once, one line each, naming it", () => {
    const problems = configProblems(readShortenerConfig, {
      PORT: "eighty",
      DATABASE_URL: "mysql://db/x",
      REDIS_URL: "redis://cache:6379/one",
      PUBLIC_BASE_URL: "ftp://sho.rt",
      REDIRECT_STATUS: "303",
      NODE_ENV: "production",
    });
    // The variables every service reads come first (readServiceBasics), then the shortener's own.
    expect(problems).toEqual([
      'PORT must be a whole number from 0 to 65535 (got "eighty")',
      "REDIS_URL must end with a database number (redis://host:port/N)",
      "ELYSIA_SECRET_KEY is required when NODE_ENV=production",
      "DATABASE_URL must be postgres://user:pass@host:port/db or sqlite:///path/file.db",
      "PUBLIC_BASE_URL must use http or https, not ftp",
      'REDIRECT_STATUS must be one of 301, 302, 307, 308 (got "303")',
    ]);
  });

  test("never echoes a secret in a problem line", () => {
    const problems = configProblems(readShortenerConfig, { ELYSIA_SECRET_KEY: "short-secret", DATABASE_URL: "postgres://u:hunter2@/" });
    expect(problems.join("\n")).not.toContain("hunter2");
    expect(problems.join("\n")).not.toContain("short-secret");
    expect(problems).toContain("ELYSIA_SECRET_KEY must be at least 32 characters");
  });

  test("logs JSON in production", () => {
    const config = readShortenerConfig({ NODE_ENV: "production", ELYSIA_SECRET_KEY: "k".repeat(32) });
    expect(config.logFormat).toBe("json");
    expect(config.secretKeyGenerated).toBe(false);
  });
});

describe("INTERNAL_SECRET", () => {
  test("unset or blank: no batches of redirects; set: the secret, at least 32 characters, never echoed in a problem line", () => {
    expect(readShortenerConfig({}).internalSecret).toBeUndefined();
    expect(readShortenerConfig({ INTERNAL_SECRET: "" }).internalSecret).toBeUndefined();
    expect(readShortenerConfig({ INTERNAL_SECRET: "s".repeat(32) }).internalSecret).toBe("s".repeat(32));
    const problems = configProblems(readShortenerConfig, { INTERNAL_SECRET: "too-short-secret-x" });
    expect(problems).toEqual(["INTERNAL_SECRET must be at least 32 characters"]);
  });
});

describe("METRICS_PORT", () => {
  test("unset: no metrics; set: the port of the metrics listener, 1 to 65535", () => {
    expect(readShortenerConfig({}).metricsPort).toBeUndefined();
    expect(readShortenerConfig({ METRICS_PORT: "9464" }).metricsPort).toBe(9464);
    for (const raw of ["0", "65536", "9464x", "-1"]) {
      expect(configProblems(readShortenerConfig, { METRICS_PORT: raw })).toEqual(["METRICS_PORT must be a whole number from 1 to 65535"]);
    }
  });

  test("RATE_LIMIT_WORKSPACE: 1200/min by default, off, or a rule whose burst holds one full bulk create", () => {
    expect(readShortenerConfig({}).workspaceRateLimit).toEqual({ capacity: 1200, perSecond: 20 });
    expect(readShortenerConfig({ RATE_LIMIT_WORKSPACE: "off" }).workspaceRateLimit).toBeUndefined();
    expect(readShortenerConfig({ RATE_LIMIT_WORKSPACE: "300/min,burst=1000" }).workspaceRateLimit).toEqual({ capacity: 1000, perSecond: 5 });
    expect(configProblems(readShortenerConfig, { RATE_LIMIT_WORKSPACE: "600/min" })).toEqual([
      'RATE_LIMIT_WORKSPACE needs a burst of at least 1000 (one full bulk create), like "600/min,burst=1000"',
    ]);
    expect(configProblems(readShortenerConfig, { RATE_LIMIT_WORKSPACE: "lots" })).toEqual([
      'RATE_LIMIT_WORKSPACE must be like "20/min", "2/s" or "600/hour,burst=50", or "off"',
    ]);
  });
});
