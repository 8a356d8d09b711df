import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLogger } from "@linkgeo/shared";
import { readJson, waitFor } from "@linkgeo/testing";
import { readGatewayConfig } from "../src/config.ts";
import { addressDigest } from "../src/rate-limit/address-digest.ts";
import { MemoryTokenBuckets } from "@linkgeo/shared/rate-limit";
import type { RateRule, TokenBuckets } from "@linkgeo/shared/rate-limit";
import { buildWebAssets, type WebAssets } from "@linkgeo/webapp";
import type { FakeUpstream } from "./support/fake-upstream.ts";
import { passwordTry, rightPassword, startProtectedShortener, triesSeen, unlockGateway } from "./support/unlock-gateway.ts";

const defaults = readGatewayConfig({}).rateLimits;

let shortener: FakeUpstream;
let web: WebAssets;
beforeAll(async () => {
  shortener = startProtectedShortener();
  web = await buildWebAssets();
});
afterAll(() => shortener.stop());

/** Token buckets on a clock the test moves, that remember every key they were asked for. */
function testBuckets() {
  let nowMs = 0;
  const memory = new MemoryTokenBuckets({ now: () => nowMs });
  const keys = new Set<string>();
  const buckets: TokenBuckets = {
    take: (key: string, rule: RateRule) => {
      keys.add(key);
      return memory.take(key, rule);
    },
    peek: (key: string, rule: RateRule) => {
      keys.add(key);
      return memory.peek(key, rule);
    },
  };
  return { buckets, memory, keys, advanceSeconds: (seconds: number) => (nowMs += seconds * 1000) };
}

const limitHeaders = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => name.startsWith("ratelimit-") || name === "retry-after"));

/** Tries `times` wrong passwords and answers the statuses. */
async function wrongTries(app: { handle: (request: Request) => Promise<Response> }, path: string, client: string, times: number) {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await app.handle(passwordTry(path, client, `guess ${i}`))).status);
  return statuses;
}

describe("password tries on a protected link, per link and client", () => {
  test("10 tries per 15 minutes: the 11th is 429 rate_limited with Retry-After, and never reaches the shortener", async () => {
    const { buckets } = testBuckets();
    const app = await unlockGateway({ shortener: shortener.origin, buckets, web });
    const before = triesSeen(shortener).get("/per-client 203.0.113.1") ?? 0;

    const tries = [];
    for (let i = 0; i < 11; i++) tries.push(await app.handle(passwordTry("/per-client", "203.0.113.1", `guess ${i}`)));

    expect(tries.slice(0, 10).map((response) => response.status)).toEqual(Array(10).fill(401));
    expect(await readJson(tries[0]!)).toEqual({ error: { code: "unauthorized", message: "wrong password" } });
    expect(limitHeaders(tries[0]!)).toEqual({ "ratelimit-limit": "10", "ratelimit-remaining": "9", "ratelimit-reset": "90", "ratelimit-policy": "10;w=900" });
    const refused = tries[10]!;
    expect(refused.status).toBe(429);
    expect(await readJson(refused)).toEqual({ error: { code: "rate_limited", message: "too many requests, retry in 90 seconds" } });
    expect(limitHeaders(refused)).toEqual({
      "retry-after": "90",
      "ratelimit-limit": "10",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "900",
      "ratelimit-policy": "10;w=900",
    });
    expect((triesSeen(shortener).get("/per-client 203.0.113.1") ?? 0) - before).toBe(10);
  });

  test("the right password is refused too once the client's tries are spent, and passes again after one refill", async () => {
    const { buckets, advanceSeconds } = testBuckets();
    const app = await unlockGateway({ shortener: shortener.origin, buckets, web });
    expect(await wrongTries(app, "/refill", "203.0.113.2", 10)).toEqual(Array(10).fill(401));
    expect((await app.handle(passwordTry("/refill", "203.0.113.2", rightPassword))).status).toBe(429);

    advanceSeconds(90);
    const unlocked = await app.handle(passwordTry("/refill", "203.0.113.2", rightPassword, "json"));
    expect([unlocked.status, unlocked.headers.get("location")]).toEqual([303, "https://example.com/secret"]);
    expect((await app.handle(passwordTry("/refill", "203.0.113.2", rightPassword))).status).toBe(429);
  });

  test("each link and each client has its own: a spent client still tries other links, and others still try this one", async () => {
    const { buckets } = testBuckets();
    const app = await unlockGateway({ shortener: shortener.origin, buckets, web });
    await wrongTries(app, "/own-a", "203.0.113.3", 10);
    expect(await wrongTries(app, "/own-a", "203.0.113.3", 1)).toEqual([429]);
    expect(await wrongTries(app, "/own-b", "203.0.113.3", 1)).toEqual([401]);
    expect(await wrongTries(app, "/own-a", "203.0.113.4", 1)).toEqual([401]);
    // The same code on another host is another link (docs/domains.md), with budgets of its own.
    const onBrand = passwordTry("/own-a", "203.0.113.3", "guess");
    expect((await app.handle(new Request(onBrand.url.replace("//gateway/", "//go.brand.test/"), onBrand))).status).toBe(401);
  });

  test("the slash form, an escaped spelling, forms and JSON all spend the same link's budget", async () => {
    const { buckets } = testBuckets();
    const app = await unlockGateway({ shortener: shortener.origin, buckets, web });
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      for (const path of ["/Spelled", "/Spelled/", "/%53pelled"])
        statuses.push((await app.handle(passwordTry(path, "203.0.113.5", "no", i % 2 ? "json" : "form"))).status);
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
  });
});

describe("password tries on a protected link, per link across clients", () => {
  test("100 tries per hour from any number of addresses; the 101st is 429 even from a fresh address", async () => {
    const { buckets, advanceSeconds } = testBuckets();
    const app = await unlockGateway({ shortener: shortener.origin, buckets, web });
    const statuses = [];
    for (let i = 0; i < 101; i++) statuses.push((await app.handle(passwordTry("/per-link", `198.51.100.${i}`, "guess"))).status);
    expect(statuses).toEqual([...Array(100).fill(401), 429]);
    const refused = await app.handle(passwordTry("/per-link", "198.51.100.200", "guess"));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("36");
    expect(refused.headers.get("ratelimit-policy")).toBe("100;w=3600");

    advanceSeconds(36);
    expect(await wrongTries(app, "/per-link", "198.51.100.201", 2)).toEqual([401, 429]);
  });

  test("a client refused its own tries spends none of the link's: one address cannot lock a link", async () => {
    const { buckets } = testBuckets();
    const app = await unlockGateway({ shortener: shortener.origin, buckets, web });
    expect(await wrongTries(app, "/not-locked", "203.0.113.6", 300)).toEqual([...Array(10).fill(401), ...Array(290).fill(429)]);
    const others = [];
    for (let i = 0; i < 90; i++) others.push((await app.handle(passwordTry("/not-locked", `198.51.100.${i}`, "guess"))).status);
    expect(others).toEqual(Array(90).fill(401));
    expect(await wrongTries(app, "/not-locked", "198.51.100.250", 1)).toEqual([429]);
  });
});

describe("the budgets' keys and their neighbours", () => {
  test("keys name the link and a keyed digest of the address, never the address", async () => {
    const { buckets, keys } = testBuckets();
    const digest = addressDigest("k".repeat(32));
    const app = await unlockGateway({ shortener: shortener.origin, buckets, web, digestAddress: digest });
    await app.handle(passwordTry("/Keyed_1", "203.0.113.77", "guess"));
    await app.handle(passwordTry("/Keyed_1", "2001:db8::77", "guess"));
    const unlockKeys = [...keys].filter((key) => key.startsWith("unlock"));
    // A link is its code on the host asked: the request's Host, here "gateway".
    expect(unlockKeys.sort()).toEqual(
      [`unlock:gateway/Keyed_1:${digest("203.0.113.77")}`, `unlock:gateway/Keyed_1:${digest("2001:db8::77")}`, "unlock-link:gateway/Keyed_1"].sort(),
    );
    expect(unlockKeys.filter((key) => key.includes("203.0.113") || key.includes("2001:db8"))).toEqual([]);
    expect(digest("203.0.113.77")).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // The digest is keyed: another secret, another key for the same address.
    expect(addressDigest("j".repeat(32))("203.0.113.77")).not.toBe(digest("203.0.113.77"));
  });

  test("a segment that cannot be a code gets no bucket of its own: it stays an API call", async () => {
    const { buckets, keys } = testBuckets();
    const app = await unlockGateway({ shortener: shortener.origin, buckets, web });
    for (const path of ["/a%2Fb", "/caf%C3%A9", `/${"x".repeat(65)}`, "/%E0%A4%A"]) await app.handle(passwordTry(path, "203.0.113.8", "guess"));
    // One bucket, the address's API budget, keyed by the address's digest.
    expect([...keys]).toEqual([expect.stringMatching(/^api:[A-Za-z0-9_-]{22}$/)]);
  });

  test("a try spends the client's API budget too, as any POST on a code did before", async () => {
    const { buckets } = testBuckets();
    const app = await unlockGateway({ shortener: shortener.origin, buckets, web, rateLimits: { ...defaults, api: { capacity: 3, perSecond: 1 / 60 } } });
    expect(await wrongTries(app, "/api-too", "203.0.113.9", 4)).toEqual([401, 401, 401, 429]);
  });

  test.each([
    ["RATE_LIMIT_UNLOCK", "/off-client", (i: number) => `198.51.100.${i % 2}`, 100],
    ["RATE_LIMIT_UNLOCK_LINK", "/off-link", (i: number) => `198.51.100.${i}`, 150],
  ])("%s=off turns that budget off", async (variable, path, client, reached) => {
    const { buckets } = testBuckets();
    const rateLimits = { ...readGatewayConfig({ [variable]: "off" }).rateLimits, api: undefined };
    const app = await unlockGateway({ shortener: shortener.origin, buckets, web, rateLimits });
    const statuses = [];
    for (let i = 0; i < 150; i++) statuses.push((await app.handle(passwordTry(path, client(i), "guess"))).status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(reached);
  });
});

describe("passwords and logs", () => {
  const secret = "hunter2-never-logged";

  test.each(["json", "pretty"] as const)("no password reaches a %s log line: allowed, refused, oversized, or with the shortener down", async (format) => {
    const lines: string[] = [];
    const log = createLogger({ service: "gateway", level: "debug", format, write: (line) => lines.push(line) });
    const { buckets } = testBuckets();
    const rateLimits = { ...defaults, unlock: { capacity: 2, perSecond: 1 / 60 } };
    const app = await unlockGateway({ shortener: shortener.origin, buckets, web, rateLimits, log, accessLog: true });
    const down = await unlockGateway({ shortener: "http://127.0.0.1:1", buckets, web, log, accessLog: true });

    const statuses = [
      (await app.handle(passwordTry("/logged", "203.0.113.10", secret))).status,
      (await app.handle(passwordTry("/logged/", "203.0.113.10", secret, "json"))).status,
      (await app.handle(passwordTry("/logged", "203.0.113.10", secret))).status,
      (await app.handle(passwordTry("/logged", "203.0.113.11", secret.repeat(5_000)))).status,
      (await down.handle(passwordTry("/logged", "203.0.113.12", secret, "json"))).status,
    ];

    expect(statuses).toEqual([401, 401, 429, 413, 502]);
    // The lines were written (an access line leaves after its response): one per try, the refusal, the dead replica.
    await waitFor("an access line per try", () => lines.filter((line) => line.includes("/logged")).length === 5);
    expect(lines.some((line) => line.includes("rate limited"))).toBe(true);
    expect(lines.filter((line) => line.includes(secret) || line.includes(encodeURIComponent(secret)))).toEqual([]);
  });
});
