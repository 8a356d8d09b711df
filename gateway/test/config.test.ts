import { describe, expect, test } from "bun:test";
import { parseIpRangeList } from "@linkgeo/shared";
import { configProblems } from "@linkgeo/testing";
import { readGatewayConfig } from "../src/config.ts";
import { parseRateRule } from "@linkgeo/shared/rate-limit";

describe("gateway configuration", () => {
  test("defaults reach the services on this machine, with rate limits for creating and for the API", () => {
    expect(readGatewayConfig({})).toMatchObject({
      port: 8080,
      shortenerUrls: ["http://127.0.0.1:3001"],
      geocoderUrls: ["http://127.0.0.1:3002"],
      upstreamTimeoutMs: 10_000,
      upstreamEjectMs: 5_000,
      redis: undefined,
      rateLimits: {
        create: { capacity: 20, perSecond: 20 / 60 },
        bulk: { capacity: 5, perSecond: 30 / 3600 },
        api: { capacity: 120, perSecond: 2 },
        redirect: undefined,
        login: { capacity: 10, perSecond: 10 / 60 },
        loginPerUser: { capacity: 10, perSecond: 30 / 3600 },
        unlock: { capacity: 10, perSecond: 10 / 900 },
        unlockPerLink: { capacity: 100, perSecond: 100 / 3600 },
        key: { capacity: 600, perSecond: 10 },
        badKey: { capacity: 10, perSecond: 30 / 3600 },
        geocodePoints: { capacity: 10_000, perSecond: 50 },
      },
    });
  });

  test("geocoding batches: 10,000 points at once per address, refilled at 3,000 a minute; configurable or off, never below one full batch", () => {
    expect(readGatewayConfig({ RATE_LIMIT_GEOCODE_POINTS: "3000/min,burst=10000" }).rateLimits.geocodePoints).toEqual(
      readGatewayConfig({}).rateLimits.geocodePoints,
    );
    expect(readGatewayConfig({ RATE_LIMIT_GEOCODE_POINTS: "off" }).rateLimits.geocodePoints).toBeUndefined();
    expect(readGatewayConfig({ RATE_LIMIT_GEOCODE_POINTS: "1000/hour" }).rateLimits.geocodePoints).toEqual({ capacity: 1000, perSecond: 1000 / 3600 });
    expect(configProblems(readGatewayConfig, { RATE_LIMIT_GEOCODE_POINTS: "100/min" })).toEqual([
      'RATE_LIMIT_GEOCODE_POINTS needs a burst of at least 1000 (one full batch), like "3000/min,burst=1000"',
    ]);
  });

  test("API keys: 600/min per key, 10 refused keys per address refilled at 30/hour; each configurable or off", () => {
    expect(readGatewayConfig({ RATE_LIMIT_KEY: "600/min", RATE_LIMIT_BAD_KEY: "30/hour,burst=10" }).rateLimits).toMatchObject(readGatewayConfig({}).rateLimits);
    expect(readGatewayConfig({ RATE_LIMIT_KEY: "off", RATE_LIMIT_BAD_KEY: "5/min" }).rateLimits).toMatchObject({
      key: undefined,
      badKey: { capacity: 5, perSecond: 5 / 60 },
    });
    expect(configProblems(readGatewayConfig, { RATE_LIMIT_KEY: "lots", RATE_LIMIT_BAD_KEY: "0/min" })).toEqual([
      'RATE_LIMIT_KEY must be like "20/min", "2/s" or "600/hour,burst=50", or "off"',
      "RATE_LIMIT_BAD_KEY needs at least 1 request and a burst of at least 1",
    ]);
  });

  test("guessed codes: 100 misses per client, refilled at 600/hour; configurable or off", () => {
    expect(readGatewayConfig({ RATE_LIMIT_MISSES: "600/hour,burst=100" }).rateLimits).toMatchObject(readGatewayConfig({}).rateLimits);
    expect(readGatewayConfig({}).rateLimits.misses).toEqual({ capacity: 100, perSecond: 100 / 600 });
    expect(readGatewayConfig({ RATE_LIMIT_MISSES: "off" }).rateLimits.misses).toBeUndefined();
    expect(configProblems(readGatewayConfig, { RATE_LIMIT_MISSES: "many" })).toEqual([
      'RATE_LIMIT_MISSES must be like "20/min", "2/s" or "600/hour,burst=50", or "off"',
    ]);
  });

  test("password tries on a protected link: 10 per 15 minutes per client and link, 100 per hour per link; each configurable or off", () => {
    expect(readGatewayConfig({ RATE_LIMIT_UNLOCK: "40/hour,burst=10", RATE_LIMIT_UNLOCK_LINK: "100/hour" }).rateLimits).toMatchObject(
      readGatewayConfig({}).rateLimits,
    );
    expect(readGatewayConfig({ RATE_LIMIT_UNLOCK: "5/min", RATE_LIMIT_UNLOCK_LINK: "off" }).rateLimits).toMatchObject({
      unlock: { capacity: 5, perSecond: 5 / 60 },
      unlockPerLink: undefined,
    });
    expect(configProblems(readGatewayConfig, { RATE_LIMIT_UNLOCK: "10/15min", RATE_LIMIT_UNLOCK_LINK: "0/hour" })).toEqual([
      'RATE_LIMIT_UNLOCK must be like "20/min", "2/s" or "600/hour,burst=50", or "off"',
      "RATE_LIMIT_UNLOCK_LINK needs at least 1 request and a burst of at least 1",
    ]);
  });

  test("bulk creates: 5 requests at once, 30 an hour, per client; configurable or off", () => {
    expect(readGatewayConfig({ RATE_LIMIT_BULK: "30/hour,burst=5" }).rateLimits.bulk).toEqual(readGatewayConfig({}).rateLimits.bulk);
    expect(readGatewayConfig({ RATE_LIMIT_BULK: "off" }).rateLimits.bulk).toBeUndefined();
    expect(configProblems(readGatewayConfig, { RATE_LIMIT_BULK: "many" })).toEqual([
      'RATE_LIMIT_BULK must be like "20/min", "2/s" or "600/hour,burst=50", or "off"',
    ]);
  });

  test("takes comma lists of replicas", () => {
    const config = readGatewayConfig({ SHORTENER_URL: "http://a:3001, http://b:3001/", GEOCODER_URL: "http://geocoder:3002" });
    expect(config.shortenerUrls).toEqual(["http://a:3001", "http://b:3001"]);
    expect(config.geocoderUrls).toEqual(["http://geocoder:3002"]);
  });

  test.each([
    ["20/min", { capacity: 20, perSecond: 20 / 60 }],
    ["2/s", { capacity: 2, perSecond: 2 }],
    ["600/hour,burst=50", { capacity: 50, perSecond: 600 / 3600 }],
    ["off", undefined],
  ])("reads the rate rule %p", (raw, rule) => {
    expect(parseRateRule(raw)).toEqual(rule);
  });

  test("reports every bad variable at once", () => {
    expect(
      configProblems(readGatewayConfig, {
        SHORTENER_URL: "shortener:3001",
        RATE_LIMIT_CREATE: "lots",
        TRUSTED_PROXIES: "10.0.0.0/8, everyone",
        UPSTREAM_TIMEOUT_MS: "5",
      }),
    ).toEqual([
      "SHORTENER_URL must use http or https, not shortener",
      'UPSTREAM_TIMEOUT_MS must be a whole number from 100 to 300000 (got "5")',
      'RATE_LIMIT_CREATE must be like "20/min", "2/s" or "600/hour,burst=50", or "off"',
      'TRUSTED_PROXIES has "everyone", which is not an IP address or CIDR range',
    ]);
  });

  test("UPSTREAM_EJECT_MS sets how long a failed replica is left out, within bounds", () => {
    expect(readGatewayConfig({ UPSTREAM_EJECT_MS: "1000" }).upstreamEjectMs).toBe(1_000);
    expect(configProblems(readGatewayConfig, { UPSTREAM_EJECT_MS: "50" })).toEqual(['UPSTREAM_EJECT_MS must be a whole number from 100 to 600000 (got "50")']);
    expect(configProblems(readGatewayConfig, { UPSTREAM_EJECT_MS: "5s" })).toEqual(['UPSTREAM_EJECT_MS must be a whole number from 100 to 600000 (got "5s")']);
    expect(configProblems(readGatewayConfig, { UPSTREAM_EJECT_MS: "600001" })).toEqual([
      'UPSTREAM_EJECT_MS must be a whole number from 100 to 600000 (got "600001")',
    ]);
  });

  test.each(["999.0.0.1", "10.0.0.0/33", "fe80::1::2", "1.2.3.4/8/8"])("refuses TRUSTED_PROXIES=%p at start, with the parser requests use", (raw) => {
    expect(configProblems(readGatewayConfig, { TRUSTED_PROXIES: raw })).toEqual([`TRUSTED_PROXIES has "${raw}", which is not an IP address or CIDR range`]);
  });

  test("TRUSTED_PROXIES defaults to this machine and accepts IPv4, IPv6 and ranges", () => {
    expect(readGatewayConfig({}).trustedProxies).toEqual(parseIpRangeList("127.0.0.1/8, ::1/128"));
    expect(readGatewayConfig({ TRUSTED_PROXIES: "10.0.0.0/8, 2001:db8::/32, 192.0.2.1" }).trustedProxies).toHaveLength(3);
  });
});

describe("INTERNAL_SECRET", () => {
  test("unset or blank: no batches of redirects; set: the secret, at least 32 characters, never echoed in a problem line", () => {
    expect(readGatewayConfig({}).internalSecret).toBeUndefined();
    expect(readGatewayConfig({ INTERNAL_SECRET: "" }).internalSecret).toBeUndefined();
    expect(readGatewayConfig({ INTERNAL_SECRET: "s".repeat(32) }).internalSecret).toBe("s".repeat(32));
    const problems = configProblems(readGatewayConfig, { INTERNAL_SECRET: "too-short-secret-x" });
    expect(problems).toEqual(["INTERNAL_SECRET must be at least 32 characters"]);
  });
});

describe("METRICS_PORT", () => {
  test("unset: no metrics; set: the port of the metrics listener, 1 to 65535", () => {
    expect(readGatewayConfig({}).metricsPort).toBeUndefined();
    expect(readGatewayConfig({ METRICS_PORT: "9464" }).metricsPort).toBe(9464);
    for (const raw of ["0", "65536", "9464x", "-1"]) {
      expect(configProblems(readGatewayConfig, { METRICS_PORT: raw })).toEqual(["METRICS_PORT must be a whole number from 1 to 65535"]);
    }
  });
});
