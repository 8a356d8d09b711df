import { describe, expect, test } from "bun:test";
import { ConfigError, parseRedisUrl, parseUrl, readConfig, readServiceBasics, type Env } from "../src/index.ts";
import { configProblems } from "@linkgeo/testing";

describe("EnvReader (through readConfig)", () => {
  test("a blank or space-only value is absent, and values are trimmed", () => {
    const read = readConfig({ A: "", B: "   ", C: "  x  " }, (vars) => ({ a: vars.raw("A"), b: vars.string("B", "fallback"), c: vars.raw("C") }));
    expect(read).toEqual({ a: undefined, b: "fallback", c: "x" });
  });

  test("integers must be whole and in range; a bad one is a problem line naming it, and its fallback stands meanwhile", () => {
    const seen: number[] = [];
    const problems = configProblems(
      (env) =>
        readConfig(env, (vars) => {
          for (const name of ["OK", "FRACTION", "LOW", "HIGH", "WORD"]) seen.push(vars.integer(name, 7, { min: 1, max: 100 }));
          return seen;
        }),
      { OK: "42", FRACTION: "1.5", LOW: "0", HIGH: "101", WORD: "ten" },
    );
    expect(problems).toEqual([
      'FRACTION must be a whole number from 1 to 100 (got "1.5")',
      'LOW must be a whole number from 1 to 100 (got "0")',
      'HIGH must be a whole number from 1 to 100 (got "101")',
      'WORD must be a whole number from 1 to 100 (got "ten")',
    ]);
    expect(seen).toEqual([42, 7, 7, 7, 7]);
  });

  test("oneOf takes only a listed value; parsed reports the parser's reason without echoing the value", () => {
    const problems = configProblems(
      (env) =>
        readConfig(env, (vars) => ({
          level: vars.oneOf("LEVEL", ["low", "high"], "low"),
          url: vars.parsed("SECRET_URL", (raw) => parseUrl(raw, ["https"])),
        })),
      { LEVEL: "medium", SECRET_URL: "http://user:hunter2@example.com" },
    );
    expect(problems).toEqual(['LEVEL must be one of low, high (got "medium")', "SECRET_URL must use https, not http"]);
    expect(problems.join("\n")).not.toContain("hunter2");
  });

  test("every problem is reported at once, in a ConfigError", () => {
    const read = () => readConfig({ A: "x", B: "y" }, (vars) => [vars.integer("A", 0, { min: 0, max: 1 }), vars.integer("B", 0, { min: 0, max: 1 })]);
    expect(read).toThrow(ConfigError);
    try {
      read();
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(2);
    }
  });

  test("a Redis URL names a host and, at most, a database number", () => {
    expect(parseRedisUrl("redis://cache:6379/3")).toEqual({ url: "redis://cache:6379/3", db: 3 });
    expect(parseRedisUrl("rediss://cache")).toEqual({ url: "rediss://cache", db: 0 });
    for (const [raw, reason] of [
      ["http://cache", "must use redis or rediss, not http"],
      ["redis://cache/one", "must end with a database number (redis://host:port/N)"],
      ["not a url", "must be a URL (redis://… or rediss://…)"],
      ["redis+sentinel://s1:26379", "must be redis+sentinel://host:port,host:port/<primary name>[/N]"],
      ["redis+sentinel://s1,s2:26379/primary", "names a sentinel that is not host:port (entry 1)"],
      ["redis+sentinel://s1:99999/primary", "names a sentinel that is not host:port (entry 1)"],
      ["redis+sentinel://s1:26379/primary/one", "must be redis+sentinel://host:port,host:port/<primary name>[/N]"],
    ] as const) {
      expect(() => parseRedisUrl(raw)).toThrow(reason);
    }
  });

  test("a Redis Sentinel URL names the sentinels, the primary's name, a database and, perhaps, its password", () => {
    expect(parseRedisUrl("redis+sentinel://s1:26379,10.0.0.7:26380,[::1]:26381/linkgeo/3")).toEqual({
      sentinels: [
        { host: "s1", port: 26379 },
        { host: "10.0.0.7", port: 26380 },
        { host: "::1", port: 26381 },
      ],
      name: "linkgeo",
      db: 3,
    });
    expect(parseRedisUrl("redis+sentinel://:p%40ss@s1:26379/linkgeo")).toEqual({
      sentinels: [{ host: "s1", port: 26379 }],
      name: "linkgeo",
      db: 0,
      password: "p@ss",
    });
  });
});

describe("readServiceBasics", () => {
  const read = (env: Env) => readConfig(env, (vars) => readServiceBasics(vars, { port: 3005, redisKeyPrefix: "svc:" }));

  test("every service's defaults: its port, all addresses, pretty logs with access lines, no Redis, no metrics", () => {
    expect(read({})).toEqual({
      port: 3005,
      hostname: "0.0.0.0",
      production: false,
      redis: undefined,
      redisSource: undefined,
      redisKeyPrefix: "svc:",
      metricsPort: undefined,
      logLevel: "info",
      logFormat: "pretty",
      accessLog: true,
    });
  });

  test("production logs JSON unless told otherwise; each variable is read with its rule", () => {
    expect(read({ NODE_ENV: "production" }).logFormat).toBe("json");
    expect(read({ NODE_ENV: "production", LOG_FORMAT: "pretty" }).logFormat).toBe("pretty");
    expect(configProblems(read, { PORT: "x", LOG_LEVEL: "loud", LOG_FORMAT: "xml", ACCESS_LOG: "yes", REDIS_URL: "http://r", METRICS_PORT: "0" })).toEqual([
      'PORT must be a whole number from 0 to 65535 (got "x")',
      "REDIS_URL must use redis or rediss, not http",
      "METRICS_PORT must be a whole number from 1 to 65535",
      'LOG_LEVEL must be one of debug, info, warn, error (got "loud")',
      'LOG_FORMAT must be one of json, pretty (got "xml")',
      'ACCESS_LOG must be one of true, false (got "yes")',
    ]);
  });

  test("where Redis comes from, for the logs: the variable and its address, password redacted", () => {
    expect(read({ REDIS_URL: "redis://app:hunter2@cache:6379/1" }).redisSource).toEqual({ variable: "REDIS_URL", address: "redis://app:***@cache:6379/1" });
    expect(read({ REDIS_CLUSTER_NODES: "r1:7000,r2:7000", REDIS_CLUSTER_PASSWORD: "hunter2" }).redisSource).toEqual({
      variable: "REDIS_CLUSTER_NODES",
      address: "r1:7000,r2:7000",
    });
  });

  test("a Redis Cluster is REDIS_CLUSTER_NODES, a comma list of host:port, with its password apart; never beside REDIS_URL", () => {
    expect(read({ REDIS_CLUSTER_NODES: "10.0.0.1:7000, redis-1.redis:7001,[::1]:7002" }).redis).toEqual({
      clusterNodes: [
        { host: "10.0.0.1", port: 7000 },
        { host: "redis-1.redis", port: 7001 },
        { host: "::1", port: 7002 },
      ],
    });
    expect(read({ REDIS_CLUSTER_NODES: "r:7000", REDIS_CLUSTER_PASSWORD: "p@ss" }).redis).toEqual({
      clusterNodes: [{ host: "r", port: 7000 }],
      password: "p@ss",
    });
    expect(configProblems(read, { REDIS_CLUSTER_NODES: "r:7000,", REDIS_CLUSTER_PASSWORD: "secret-value" })).toEqual([
      "REDIS_CLUSTER_NODES names a node that is not host:port (entry 2)",
    ]);
    expect(configProblems(read, { REDIS_CLUSTER_NODES: "r:7000,r" })).toEqual(["REDIS_CLUSTER_NODES names a node that is not host:port (entry 2)"]);
    // A URL with its password, put there by mistake, is not printed.
    expect(configProblems(read, { REDIS_CLUSTER_NODES: "redis://:hunter2@r:7000" })).toEqual([
      "REDIS_CLUSTER_NODES names a node that is not host:port (entry 1)",
    ]);
    expect(configProblems(read, { REDIS_CLUSTER_NODES: "r:7000", REDIS_URL: "redis://r:6379" })).toEqual([
      "REDIS_URL and REDIS_CLUSTER_NODES are both set: a service uses one Redis, set one of them",
    ]);
    // The password is never echoed, and is refused alone rather than ignored.
    expect(configProblems(read, { REDIS_CLUSTER_PASSWORD: "secret-value" })).toEqual([
      "REDIS_CLUSTER_PASSWORD is set without REDIS_CLUSTER_NODES (a single server's password goes in REDIS_URL)",
    ]);
  });
});
