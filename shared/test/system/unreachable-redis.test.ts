import { describe, expect, test } from "bun:test";
import { freePort, readJson, startService, waitFor, type ServiceName } from "@linkgeo/testing";

/**
 * Each service started with a REDIS_URL nothing answers at (a closed port,
 * a host that does not exist): it starts degraded as before, and its log
 * says which variable points where, password redacted, instead of only
 * ioredis' "Stream isn't writeable" on every command.
 */

const ownEnv: Record<ServiceName, Record<string, string>> = {
  shortener: { DATABASE_URL: "sqlite:///:memory:" },
  geocoder: { GEOCODER_CACHE_PATH: ":memory:" },
  gateway: {},
};

const password = "hunter2-never-logged";

describe.each(["shortener", "geocoder", "gateway"] as const)("the %s with an unreachable REDIS_URL", (service) => {
  test.each([
    ["a closed port, with a password", async () => `redis://cache-user:${password}@127.0.0.1:${await freePort()}/3`, "redis://cache-user:***@127.0.0.1:"],
    ["a host that does not exist", async () => "redis://no-such-redis.invalid:6379", "redis://no-such-redis.invalid:6379"],
  ])("%s: starts degraded and logs one line naming REDIS_URL and the address", async (_, redisUrl, shownAddress) => {
    await using started = await startService(service, { ...ownEnv[service], REDIS_URL: await redisUrl(), LOG_FORMAT: "json" }, { echo: false });
    const warnings = () =>
      started
        .lines()
        .map((line) => JSON.parse(line))
        .filter((line) => line.level === "warn");
    await waitFor("the line about Redis", () => warnings().length > 0);
    expect(warnings()).toEqual([
      expect.objectContaining({
        service,
        msg: "cannot reach Redis at REDIS_URL: going on without it and trying again",
        variable: "REDIS_URL",
        address: expect.stringContaining(shownAddress),
      }),
    ]);
    expect(started.output()).not.toContain(password);
    // Degraded, not down: `/ready` answers 200 (startService waited for it) and says which check fails.
    const ready = await readJson(await fetch(`${started.url}/ready`));
    expect(ready.status).toBe("degraded");
  });
});
