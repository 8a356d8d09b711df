import { describe, expect, test } from "bun:test";
import { parseIpRangeList } from "@linkgeo/shared";
import { configProblems } from "@linkgeo/testing";
import { readGatewayConfig } from "../../gateway/src/config.ts";
import { readGeocoderConfig } from "../src/config.ts";

describe("geocoder configuration", () => {
  test("GEOCODER_LOCAL=false leaves LOCAL out; another value is a problem", () => {
    expect(readGeocoderConfig({ GEOCODER_LOCAL: "false" }).local).toBe(false);
    expect(readGeocoderConfig({ GEOCODER_DEFAULT_ORDER: "local,here" }).defaultOrder).toEqual(["LOCAL", "HERE"]);
    expect(configProblems(readGeocoderConfig, { GEOCODER_LOCAL: "no" })).toEqual([expect.stringContaining("GEOCODER_LOCAL")]);
  });

  test("starts with only LOCAL, an in-process L1 and the default order", () => {
    expect(readGeocoderConfig({})).toMatchObject({
      port: 3002,
      redis: undefined,
      geoapify: undefined,
      here: undefined,
      nominatim: undefined,
      replicas: [],
      local: true,
      defaultOrder: ["REPLICAS", "NOMINATIM", "GEOAPIFY", "HERE", "LOCAL"],
      providerTimeoutMs: 5000,
      chainTimeoutMs: 8000,
      cachePath: "./data/geocoder-cache.db",
      l2TtlDays: 30,
      fallbackTtlSeconds: 300,
      rateLimits: { NOMINATIM: 1, GEOAPIFY: 5, HERE: 5 },
    });
  });

  test("registers providers from their variables, replicas in number order", () => {
    const config = readGeocoderConfig({
      GEOAPIFY_API_KEY: "geo-key",
      HERE_API_KEY: "here-key",
      HERE_URL: "http://127.0.0.1:9000/revgeocode",
      NOMINATIM_USER_AGENT: "linkgeo-test/1.0 (ops@example.com)",
      NOMINATIM_REVERSER_REPLICA_URL_2: "http://nominatim-2:8080/reverse",
      NOMINATIM_REVERSER_REPLICA_URL_1: "http://nominatim-1:8080/reverse",
      REDIS_URL: "redis://cache:6379/2",
    });
    expect(config.geoapify).toEqual({ apiKey: "geo-key", url: undefined });
    expect(config.here).toEqual({ apiKey: "here-key", url: "http://127.0.0.1:9000/revgeocode" });
    expect(config.nominatim).toEqual({ userAgent: "linkgeo-test/1.0 (ops@example.com)", url: undefined });
    expect(config.replicas).toEqual([
      { number: 1, url: "http://nominatim-1:8080/reverse" },
      { number: 2, url: "http://nominatim-2:8080/reverse" },
    ]);
    expect(config.redis).toEqual({ url: "redis://cache:6379/2", db: 2 });
  });

  test("a self-hosted Nominatim has no rate limit of ours unless one is set", () => {
    expect(readGeocoderConfig({ NOMINATIM_URL: "http://osm.internal/reverse" }).rateLimits.NOMINATIM).toBeUndefined();
    expect(readGeocoderConfig({ NOMINATIM_URL: "http://osm.internal/reverse", NOMINATIM_RATE_LIMIT: "20" }).rateLimits.NOMINATIM).toBe(20);
  });

  test("GEOCODER_CHAIN_TIMEOUT_MS is the chain's budget, at least one provider call's", () => {
    expect(readGeocoderConfig({ GEOCODER_CHAIN_TIMEOUT_MS: "6000" })).toMatchObject({ chainTimeoutMs: 6000, providerTimeoutMs: 5000 });
    expect(readGeocoderConfig({ GEOCODER_CHAIN_TIMEOUT_MS: "2000", GEOCODER_PROVIDER_TIMEOUT_MS: "2000" })).toMatchObject({ chainTimeoutMs: 2000 });
    expect(configProblems(readGeocoderConfig, { GEOCODER_CHAIN_TIMEOUT_MS: "3000" })).toEqual([
      "GEOCODER_CHAIN_TIMEOUT_MS (3000) must be at least GEOCODER_PROVIDER_TIMEOUT_MS (5000): the first provider asked gets its whole budget",
    ]);
    expect(configProblems(readGeocoderConfig, { GEOCODER_PROVIDER_TIMEOUT_MS: "9000" })).toEqual([
      "GEOCODER_CHAIN_TIMEOUT_MS (8000) must be at least GEOCODER_PROVIDER_TIMEOUT_MS (9000): the first provider asked gets its whole budget",
    ]);
    // A bad value is reported once, not again as a comparison.
    expect(configProblems(readGeocoderConfig, { GEOCODER_CHAIN_TIMEOUT_MS: "8s", GEOCODER_PROVIDER_TIMEOUT_MS: "9000" })).toEqual([
      'GEOCODER_CHAIN_TIMEOUT_MS must be a whole number from 100 to 300000 (got "8s")',
    ]);
  });

  test("the chain's default budget is below the gateway's default upstream timeout, so LOCAL answers before a 504", () => {
    expect(readGeocoderConfig({}).chainTimeoutMs).toBeLessThan(readGatewayConfig({}).upstreamTimeoutMs);
  });

  test("GEOCODER_FALLBACK_TTL_SECONDS is how long a fallback answer is kept, from a second to a day", () => {
    expect(readGeocoderConfig({ GEOCODER_FALLBACK_TTL_SECONDS: "60" }).fallbackTtlSeconds).toBe(60);
    expect(readGeocoderConfig({ GEOCODER_FALLBACK_TTL_SECONDS: "86400" }).fallbackTtlSeconds).toBe(86_400);
    for (const bad of ["0", "86401", "5m", "-1"]) {
      expect(configProblems(readGeocoderConfig, { GEOCODER_FALLBACK_TTL_SECONDS: bad })).toEqual([
        `GEOCODER_FALLBACK_TTL_SECONDS must be a whole number from 1 to 86400 (got "${bad}")`,
      ]);
    }
  });

  test("jobs: a SQLite file beside L2's unless GEOCODER_JOBS_PATH or a Postgres URL says otherwise; their lifetime, pace and lease", () => {
    expect(readGeocoderConfig({}).jobs).toEqual({ engine: "sqlite", path: "data/geocoder-jobs.db" });
    expect(readGeocoderConfig({ GEOCODER_CACHE_PATH: "/var/lib/geo/cache.db" }).jobs).toEqual({ engine: "sqlite", path: "/var/lib/geo/geocoder-jobs.db" });
    expect(readGeocoderConfig({ GEOCODER_CACHE_PATH: ":memory:" }).jobs).toEqual({ engine: "sqlite", path: ":memory:" });
    expect(readGeocoderConfig({ GEOCODER_JOBS_PATH: "/jobs/all.db" }).jobs).toEqual({ engine: "sqlite", path: "/jobs/all.db" });
    expect(readGeocoderConfig({ GEOCODER_JOBS_DATABASE_URL: "postgres://geo@db:5432/jobs" }).jobs).toEqual({
      engine: "postgres",
      url: "postgres://geo@db:5432/jobs",
    });
    expect(readGeocoderConfig({})).toMatchObject({ jobTtlHours: 168, jobPointsInFlight: 4, jobLeaseMs: 30_000 });
    expect(readGeocoderConfig({ GEOCODER_JOB_TTL_HOURS: "1", GEOCODER_JOB_POINTS_IN_FLIGHT: "64", GEOCODER_JOB_LEASE_SECONDS: "5" })).toMatchObject({
      jobTtlHours: 1,
      jobPointsInFlight: 64,
      jobLeaseMs: 5_000,
    });
    expect(
      configProblems(readGeocoderConfig, {
        GEOCODER_JOBS_DATABASE_URL: "mysql://db/jobs",
        GEOCODER_JOB_TTL_HOURS: "0",
        GEOCODER_JOB_POINTS_IN_FLIGHT: "65",
        GEOCODER_JOB_LEASE_SECONDS: "forever",
      }),
    ).toEqual([
      "GEOCODER_JOBS_DATABASE_URL must use postgres or postgresql, not mysql",
      'GEOCODER_JOB_TTL_HOURS must be a whole number from 1 to 8760 (got "0")',
      'GEOCODER_JOB_POINTS_IN_FLIGHT must be a whole number from 1 to 64 (got "65")',
      'GEOCODER_JOB_LEASE_SECONDS must be a whole number from 1 to 3600 (got "forever")',
    ]);
  });

  test("jobs' quotas: per client in points waiting and MiB kept, for the store in MiB and a SQLite disk's free MiB; one client's must fit in the store", () => {
    const mib = 1024 * 1024;
    expect(readGeocoderConfig({}).jobQuota).toEqual({ clientPoints: 200_000, clientBytes: 1_024 * mib, storeBytes: 10_240 * mib, diskFloorBytes: 1_024 * mib });
    expect(
      readGeocoderConfig({
        GEOCODER_JOB_CLIENT_MAX_POINTS: "100000",
        GEOCODER_JOB_CLIENT_MAX_MIB: "256",
        GEOCODER_JOBS_MAX_MIB: "256",
        GEOCODER_JOBS_MIN_FREE_MIB: "0",
      }).jobQuota,
    ).toEqual({ clientPoints: 100_000, clientBytes: 256 * mib, storeBytes: 256 * mib, diskFloorBytes: 0 });
    expect(
      configProblems(readGeocoderConfig, {
        GEOCODER_JOB_CLIENT_MAX_POINTS: "99999",
        GEOCODER_JOB_CLIENT_MAX_MIB: "255",
        GEOCODER_JOBS_MAX_MIB: "1GiB",
        GEOCODER_JOBS_MIN_FREE_MIB: "-1",
      }),
    ).toEqual([
      'GEOCODER_JOB_CLIENT_MAX_POINTS must be a whole number from 100000 to 100000000 (got "99999")',
      'GEOCODER_JOB_CLIENT_MAX_MIB must be a whole number from 256 to 1048576 (got "255")',
      'GEOCODER_JOBS_MAX_MIB must be a whole number from 256 to 16777216 (got "1GiB")',
      'GEOCODER_JOBS_MIN_FREE_MIB must be a whole number from 0 to 1048576 (got "-1")',
    ]);
    expect(configProblems(readGeocoderConfig, { GEOCODER_JOB_CLIENT_MAX_MIB: "2048", GEOCODER_JOBS_MAX_MIB: "1024" })).toEqual([
      "GEOCODER_JOBS_MAX_MIB (1024) must be at least GEOCODER_JOB_CLIENT_MAX_MIB (2048): one client's jobs must fit in the store",
    ]);
  });

  test("who made a job: TRUSTED_PROXIES (default this machine) and GEOCODER_JOBS_SECRET, at least 32 characters and never echoed", () => {
    expect(readGeocoderConfig({})).toMatchObject({ jobsSecret: undefined, trustedProxies: parseIpRangeList("127.0.0.1/8,::1/128") });
    expect(readGeocoderConfig({ TRUSTED_PROXIES: "10.0.0.0/8", GEOCODER_JOBS_SECRET: "s".repeat(32) })).toMatchObject({
      jobsSecret: "s".repeat(32),
      trustedProxies: parseIpRangeList("10.0.0.0/8"),
    });
    expect(configProblems(readGeocoderConfig, { TRUSTED_PROXIES: "10.0.0.0/33", GEOCODER_JOBS_SECRET: "short-secret" })).toEqual([
      "GEOCODER_JOBS_SECRET must be at least 32 characters",
      'TRUSTED_PROXIES has "10.0.0.0/33", which is not an IP address or CIDR range',
    ]);
  });

  test("reads the default order without regard to case", () => {
    expect(readGeocoderConfig({ GEOCODER_DEFAULT_ORDER: "here, geoapify,REPLICAS" }).defaultOrder).toEqual(["HERE", "GEOAPIFY", "REPLICAS"]);
  });

  test("reports every bad variable at once, one line each, and never a key", () => {
    expect(
      configProblems(readGeocoderConfig, {
        PORT: "x",
        GEOAPIFY_API_KEY: "secret-key-123",
        GEOAPIFY_URL: "ftp://geo",
        NOMINATIM_REVERSER_REPLICA_URL_1: "not a url",
        NOMINATIM_REVERSER_REPLICA_URL_0: "http://zero/reverse",
        GEOCODER_DEFAULT_ORDER: "nominatim,google",
        GEOCODER_CHAIN_TIMEOUT_MS: "0",
        NOMINATIM_RATE_LIMIT: "-1",
        GEOCODER_L2_TTL_DAYS: "0",
        GEOCODER_FALLBACK_TTL_SECONDS: "soon",
      }),
    ).toEqual([
      'PORT must be a whole number from 0 to 65535 (got "x")',
      "GEOAPIFY_URL must use http or https, not ftp",
      "NOMINATIM_REVERSER_REPLICA_URL_1 must be a URL (http://… or https://…)",
      "NOMINATIM_REVERSER_REPLICA_URL_0: replicas are numbered from 1",
      "GEOCODER_DEFAULT_ORDER has unknown entries GOOGLE: use REPLICAS, NOMINATIM, GEOAPIFY, HERE, LOCAL",
      'GEOCODER_CHAIN_TIMEOUT_MS must be a whole number from 100 to 300000 (got "0")',
      "NOMINATIM_RATE_LIMIT must be requests per second, a number above 0",
      'GEOCODER_L2_TTL_DAYS must be a whole number from 1 to 3650 (got "0")',
      'GEOCODER_FALLBACK_TTL_SECONDS must be a whole number from 1 to 86400 (got "soon")',
    ]);
  });
});

describe("METRICS_PORT", () => {
  test("unset: no metrics; set: the port of the metrics listener, 1 to 65535", () => {
    expect(readGeocoderConfig({}).metricsPort).toBeUndefined();
    expect(readGeocoderConfig({ METRICS_PORT: "9464" }).metricsPort).toBe(9464);
    for (const raw of ["0", "65536", "9464x", "-1"]) {
      expect(configProblems(readGeocoderConfig, { METRICS_PORT: raw })).toEqual(["METRICS_PORT must be a whole number from 1 to 65535"]);
    }
  });
});
