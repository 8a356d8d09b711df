import { afterAll, describe, expect, test } from "bun:test";
import { silentLogger, type Logger } from "@linkgeo/shared";
import { deleteKeysWithPrefix, freePort, rejectionOf, testRedisUrl, uniqueRedisPrefix, waitFor } from "@linkgeo/testing";
import Redis from "ioredis";
import ky from "ky";
import type { HealthStore } from "../src/health/health-store.ts";
import { MemoryHealthStore } from "../src/health/memory-health-store.ts";
import { RedisHealthStore } from "../src/health/redis-health-store.ts";
import { HttpProvider } from "../src/providers/http-provider.ts";
import { ProviderError, UnexpectedPayload } from "../src/providers/provider-error.ts";
import { ProviderHealth, type ProviderHealthOptions } from "../src/providers/provider-health.ts";
import { MemoryRateLimiter } from "../src/rate-limit/memory-rate-limiter.ts";
import { reply, startFakeProvider, type FakeProvider } from "@linkgeo/testing";

const start = Date.parse("2026-11-22T08:00:00.000Z");
const at = (ms: number) => new Date(start + ms);

// Every Redis test of this file runs under a prefix of its own: the replicas
// of a test share their provider's key, and no run ever meets another.
const prefix = uniqueRedisPrefix("provider_health");
const clients: Redis[] = [];
/** One replica's Redis client with the service's prefix, on the test's Redis or on a closed port. */
function client(options: { port?: number } = {}): Redis {
  const redis =
    options.port === undefined
      ? new Redis(testRedisUrl, { keyPrefix: prefix, enableOfflineQueue: true, maxRetriesPerRequest: 1 })
      : new Redis({ host: "127.0.0.1", port: options.port, keyPrefix: prefix, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  redis.on("error", () => {});
  clients.push(redis);
  return redis;
}
/** A client of the test's Redis without the prefix, to look at the keys as they are. */
const inspector = new Redis(testRedisUrl);
afterAll(async () => {
  for (const redis of clients) redis.disconnect();
  inspector.disconnect();
  await deleteKeysWithPrefix(testRedisUrl, prefix);
});

/**
 * Where Redis is up, these tests are about what it holds, not about how
 * long it takes: a generous timeout keeps a busy machine from sending a
 * call to the in-process fallback (the tests of the fallback use a closed port).
 */
const patientMs = 5_000;

let providers = 0;
/** A provider name no other test uses, so tests sharing a store never meet. */
const freshProvider = () => `TESTGEO_${++providers}`;

/**
 * The contract of provider health, run on every store: what one ProviderHealth
 * sees is the same whether its state is kept in this process or elsewhere.
 */
describe.each([
  ["memory", () => new MemoryHealthStore()],
  ["redis", () => new RedisHealthStore(client(), { commandTimeoutMs: patientMs })],
] as Array<[string, () => HealthStore]>)("provider health on %s", (_, makeStore) => {
  const store = makeStore();
  const healthOf = (options: ProviderHealthOptions = {}) => new ProviderHealth({ provider: freshProvider(), store, clock: () => at(0), ...options });

  test("three failures in a row take it out for 30 s; a success in between starts the count again", async () => {
    const health = healthOf();
    await health.recordFailure("timeout", at(0));
    await health.recordFailure("timeout", at(0));
    await health.recordSuccess(at(0));
    await health.recordFailure("timeout", at(0));
    await health.recordFailure("timeout", at(0));
    expect(await health.available(at(0))).toBe(true);
    expect(await health.recordFailure("unreachable", at(1_000))).toBe("opened");
    expect(await health.available(at(1_000))).toBe(false);
    expect(await health.retryAt(at(1_000))).toEqual(at(31_000));
    expect(await health.admit(at(30_999))).toEqual({ admitted: false, why: "failing", retryAt: at(31_000), lastFailure: "unreachable" });
  });

  test("lets one trial through after the wait; its success closes the breaker", async () => {
    const health = healthOf({ failureThreshold: 1, openMs: 10_000 });
    await health.recordFailure("upstream_error", at(0));
    expect(await health.admit(at(10_000))).toEqual({ admitted: true, trial: true, since: at(10_000) });
    expect(await health.admit(at(10_001))).toEqual({ admitted: false, why: "failing", retryAt: undefined, lastFailure: "upstream_error" });
    expect(await health.recordSuccess(at(10_001))).toBe("closed");
    expect(await health.admit(at(10_002))).toEqual({ admitted: true, trial: false });
  });

  test("a failed trial reopens it; a released trial lets the next call be the trial", async () => {
    const health = healthOf({ failureThreshold: 1, openMs: 10_000 });
    await health.recordFailure("bad_response", at(0));
    const trial = await health.admit(at(10_000));
    await health.release(trial, at(10_000));
    expect(await health.admit(at(10_001))).toEqual({ admitted: true, trial: true, since: at(10_001) });
    expect(await health.recordFailure("bad_response", at(10_500))).toBe("opened");
    expect(await health.retryAt(at(10_500))).toEqual(at(20_500));
  });

  test("a trial that never reports back stops blocking after another period", async () => {
    const health = healthOf({ failureThreshold: 1, openMs: 10_000 });
    await health.recordFailure("timeout", at(0));
    expect(await health.admit(at(10_000))).toMatchObject({ admitted: true, trial: true });
    expect(await health.available(at(19_999))).toBe(false);
    expect(await health.admit(at(20_000))).toEqual({ admitted: true, trial: true, since: at(20_000) });
  });

  test("a late release of a trial that was given up on does not free the trial that replaced it", async () => {
    const health = healthOf({ failureThreshold: 1, openMs: 10_000 });
    await health.recordFailure("timeout", at(0));
    const stale = await health.admit(at(10_000));
    expect(await health.admit(at(20_000))).toMatchObject({ trial: true });
    await health.release(stale, at(20_500));
    expect(await health.admit(at(20_600))).toEqual({ admitted: false, why: "failing", retryAt: undefined, lastFailure: "timeout" });
  });

  test("a late failure while the breaker is open changes nothing but the reason", async () => {
    const health = healthOf({ failureThreshold: 1, openMs: 10_000 });
    await health.recordFailure("timeout", at(0));
    expect(await health.recordFailure("upstream_error", at(5_000))).toBeUndefined();
    expect(await health.admit(at(5_000))).toEqual({ admitted: false, why: "failing", retryAt: at(10_000), lastFailure: "upstream_error" });
  });

  test("a cooldown keeps it out until the date, the later one winning", async () => {
    const health = healthOf();
    await health.coolDownUntil(at(60_000), at(0));
    await health.coolDownUntil(at(30_000), at(0));
    expect(await health.admit(at(59_999))).toEqual({ admitted: false, why: "rate_limited", retryAt: at(60_000), lastFailure: undefined });
    expect(await health.available(at(60_000))).toBe(true);
  });

  test("a cooldown during an open breaker waits for the later of the two", async () => {
    const health = healthOf({ failureThreshold: 1, openMs: 10_000 });
    await health.recordFailure("upstream_error", at(0));
    await health.coolDownUntil(at(5_000), at(0));
    expect(await health.admit(at(1_000))).toEqual({ admitted: false, why: "rate_limited", retryAt: at(10_000), lastFailure: "upstream_error" });
  });

  test("providers are kept apart", async () => {
    const [one, two] = [healthOf({ failureThreshold: 1 }), healthOf({ failureThreshold: 1 })];
    await one.recordFailure("timeout", at(0));
    expect([await one.available(at(1)), await two.available(at(1))]).toEqual([false, true]);
  });
});

/** A logger that keeps its warnings and infos as lines. */
function capture() {
  const lines: string[] = [];
  const log: Logger = { ...silentLogger, warn: (message) => lines.push(`warn ${message}`), info: (message) => lines.push(`info ${message}`) };
  return { lines, log };
}

describe("provider health on Redis", () => {
  const keyOf = (provider: string) => `${prefix}provider-health:${provider}`;

  test("keeps a key only for a provider that is not healthy, under the client's prefix, with an expiry", async () => {
    const provider = freshProvider();
    const health = new ProviderHealth({ provider, store: new RedisHealthStore(client(), { commandTimeoutMs: patientMs }) });
    await health.admit(at(0));
    await health.recordSuccess(at(0));
    expect(await inspector.exists(keyOf(provider))).toBe(0);

    await health.recordFailure("timeout", at(0));
    expect(JSON.parse((await inspector.get(keyOf(provider)))!)).toEqual({
      failures: 1,
      lastFailure: "timeout",
      openUntil: null,
      trialSince: null,
      waitUntil: 0,
    });
    // Kept an hour after the last moment it speaks of (here: now).
    expect(await inspector.pttl(keyOf(provider))).toBeWithin(60 * 60_000 - 5_000, 60 * 60_000 + 1);

    await health.coolDownUntil(at(10 * 60_000), at(0));
    expect(await inspector.pttl(keyOf(provider))).toBeWithin(70 * 60_000 - 5_000, 70 * 60_000 + 1);

    await health.recordSuccess(at(0));
    // Still waiting out the 429: kept.
    expect(await inspector.exists(keyOf(provider))).toBe(1);
  });

  test("a success after failures removes the key", async () => {
    const provider = freshProvider();
    const health = new ProviderHealth({ provider, store: new RedisHealthStore(client(), { commandTimeoutMs: patientMs }) });
    await health.recordFailure("upstream_error", at(0));
    expect(await inspector.exists(keyOf(provider))).toBe(1);
    await health.recordSuccess(at(1));
    expect(await inspector.exists(keyOf(provider))).toBe(0);
  });

  test.each([["not json"], ['{"failures":"many"}'], ['{"failures":1,"lastFailure":"on fire","openUntil":null,"trialSince":null,"waitUntil":0}'], ["[]"]])(
    "takes an unreadable state (%p) as healthy, and replaces it with the next change",
    async (garbage) => {
      const provider = freshProvider();
      await inspector.set(keyOf(provider), garbage);
      const health = new ProviderHealth({ provider, store: new RedisHealthStore(client(), { commandTimeoutMs: patientMs }), failureThreshold: 1 });
      expect(await health.available(at(0))).toBe(true);
      expect(await health.recordFailure("timeout", at(0))).toBe("opened");
      expect(JSON.parse((await inspector.get(keyOf(provider)))!)).toMatchObject({ failures: 1, openUntil: start + 30_000 });
    },
  );

  test("many replicas admitting at once after the wait let exactly one trial through", async () => {
    const provider = freshProvider();
    const replicas = Array.from(
      { length: 4 },
      () => new ProviderHealth({ provider, store: new RedisHealthStore(client(), { commandTimeoutMs: patientMs }), failureThreshold: 1 }),
    );
    await replicas[0]!.recordFailure("timeout", at(0));
    const admissions = await Promise.all(Array.from({ length: 20 }, (_, i) => replicas[i % replicas.length]!.admit(at(30_000))));
    expect(admissions.filter((admission) => admission.admitted)).toEqual([{ admitted: true, trial: true, since: at(30_000) }]);
  });

  test("falls back to its own state when Redis is unreachable, with one warning", async () => {
    const { lines, log } = capture();
    const health = new ProviderHealth({
      provider: freshProvider(),
      store: new RedisHealthStore(client({ port: await freePort() }), { log }),
      failureThreshold: 2,
    });
    expect(await health.recordFailure("timeout", at(0))).toBeUndefined();
    expect(await health.recordFailure("timeout", at(0))).toBe("opened");
    expect(await health.admit(at(1_000))).toMatchObject({ admitted: false, why: "failing" });
    expect(lines).toEqual(["warn Redis unavailable: provider cooldowns and breakers hold per process only"]);
  });
});

/** A trivial Nominatim-like mapper: the real ones are tested on their own. */
function mapPayload(body: unknown) {
  if (typeof body !== "object" || body === null) throw new UnexpectedPayload("the body is not an object");
  if ("error" in body) return [];
  throw new UnexpectedPayload("no address expected here");
}

/**
 * Two geocoder replicas' view of one provider: two HttpProviders, each with
 * its own ProviderHealth, store and Redis client, in front of one fake, on
 * one clock the test moves (replicas' clocks agree).
 */
function replicas(fake: FakeProvider, stores: () => HealthStore) {
  const time = { now: start };
  const clock = () => new Date(time.now);
  const name = freshProvider();
  const replica = () =>
    new HttpProvider({
      name,
      publicUrl: "https://geo.example/reverse",
      buildRequest: () => ({ url: fake.url("/reverse"), headers: {} }),
      mapPayload,
      http: ky.create({}),
      rateLimiter: new MemoryRateLimiter(),
      health: new ProviderHealth({ provider: name, store: stores(), clock }),
      clock,
      timeoutMs: 2_000,
      retryDelayMs: 10,
    });
  return { a: replica(), b: replica(), time };
}

const query = { latitude: 0, longitude: 0 };
const nothingThere = () => reply.fixture("nominatim-07-null-island-0-0-unable-to-geocode.json");

async function failureOf(promise: Promise<unknown>) {
  const error = await rejectionOf(promise);
  if (!(error instanceof ProviderError)) throw error;
  return { failure: error.failure, retryAt: error.retryAt };
}

describe("replicas sharing provider health through Redis", () => {
  const shared = () => new RedisHealthStore(client(), { commandTimeoutMs: patientMs });

  test("after the provider answers 429 with Retry-After to one replica, the other does not call it until then", async () => {
    await using fake = startFakeProvider({ replies: [reply.status(429, { "retry-after": "120" })], otherwise: nothingThere() });
    const { a, b, time } = replicas(fake, shared);
    expect(await failureOf(a.reverse(query))).toEqual({ failure: "rate_limited", retryAt: at(120_000) });

    time.now = start + 119_999;
    expect(await failureOf(b.reverse(query))).toEqual({ failure: "rate_limited", retryAt: at(120_000) });
    expect(fake.requests).toHaveLength(1);

    time.now = start + 120_000;
    expect(await b.reverse(query)).toEqual([]);
    expect(fake.requests).toHaveLength(2);
  });

  test("a breaker opened by failures through one replica keeps the other out", async () => {
    await using fake = startFakeProvider({ otherwise: reply.status(503) });
    const { a, b } = replicas(fake, shared);
    for (let call = 0; call < 3; call++) expect((await failureOf(a.reverse(query))).failure).toBe("upstream_error");
    expect(fake.requests).toHaveLength(6);
    expect(await failureOf(b.reverse(query))).toEqual({ failure: "cooling_down", retryAt: at(30_000) });
    expect(fake.requests).toHaveLength(6);
  });

  test("after the breaker's wait, one trial request goes out across both replicas", async () => {
    await using fake = startFakeProvider({ otherwise: reply.status(503) });
    const { a, b, time } = replicas(fake, shared);
    for (let call = 0; call < 3; call++) await failureOf(a.reverse(query));
    expect(fake.requests).toHaveLength(6);

    time.now = start + 30_000;
    const gate = Promise.withResolvers<void>();
    fake.script({ ...nothingThere(), until: gate.promise });
    const settled: string[] = [];
    const calls = [a, b].map((replica, i) =>
      replica.reverse(query).then(
        () => void settled.push(`${i}: answered`),
        (error: ProviderError) => void settled.push(`${i}: ${error.failure}`),
      ),
    );
    // One of the two is refused at once; the other is the trial, held in flight by the gate.
    await waitFor("one replica to be refused", () => settled.length === 1);
    expect(settled[0]).toMatch(/^[01]: cooling_down$/);
    await fake.waitForRequests(7);
    expect(fake.requests).toHaveLength(7);

    gate.resolve();
    await Promise.all(calls);
    const [refused, trial] = settled;
    expect(trial).toBe(`${refused!.startsWith("0") ? 1 : 0}: answered`);
    // The trial's success closed the breaker for both.
    fake.otherwise(nothingThere());
    expect([await a.reverse(query), await b.reverse(query)]).toEqual([[], []]);
    expect(fake.requests).toHaveLength(9);
  });

  test("with Redis unreachable, each replica falls back to its own state and warns", async () => {
    await using fake = startFakeProvider({ otherwise: reply.status(429, { "retry-after": "120" }) });
    const closedPort = await freePort();
    const logs = [capture(), capture()];
    let made = 0;
    const { a, b } = replicas(fake, () => new RedisHealthStore(client({ port: closedPort }), { log: logs[made++]!.log }));
    expect((await failureOf(a.reverse(query))).failure).toBe("rate_limited");
    expect((await failureOf(a.reverse(query))).failure).toBe("rate_limited");
    expect(fake.requests).toHaveLength(1);
    // B never heard of A's 429: it asks for itself, and then keeps away too.
    expect((await failureOf(b.reverse(query))).failure).toBe("rate_limited");
    expect((await failureOf(b.reverse(query))).failure).toBe("rate_limited");
    expect(fake.requests).toHaveLength(2);
    for (const { lines } of logs) expect(lines).toEqual(["warn Redis unavailable: provider cooldowns and breakers hold per process only"]);
  });
});
