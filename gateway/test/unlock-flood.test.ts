import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readGatewayConfig } from "../src/config.ts";
import { MemoryTokenBuckets } from "@linkgeo/shared/rate-limit";
import { buildWebAssets, type WebAssets } from "@linkgeo/webapp";
import { sharedRedisBuckets } from "./support/shared-redis-buckets.ts";
import { passwordTry, startProtectedShortener, triesSeen, unlockGateway } from "./support/unlock-gateway.ts";

// The API budget is off here, so what stops the tries is the two unlock budgets alone.
const unlockBudgetsOnly = { ...readGatewayConfig({}).rateLimits, api: undefined };

let web: WebAssets;
beforeAll(async () => {
  web = await buildWebAssets();
});

/** Answers every request of `requests`, one after another, and counts the statuses. */
async function send(app: { handle: (request: Request) => Promise<Response> }, requests: Iterable<Request>): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  for (const request of requests) {
    const response = await app.handle(request);
    await response.body?.cancel();
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  }
  return statuses;
}

/** 198.18.0.0/15 (benchmarking): `n` distinct addresses. */
const address = (n: number) => `198.18.${Math.floor(n / 256)}.${n % 256}`;

describe("10,000 password tries from many addresses, in-process buckets", () => {
  test("reach the limits: 100 per link, 10 per client and link; the bucket store holds one bucket per pair, not per try, and empties", async () => {
    await using shortener = startProtectedShortener();
    let nowMs = 0;
    const buckets = new MemoryTokenBuckets({ now: () => nowMs });
    const app = await unlockGateway({ shortener: shortener.origin, buckets, web, rateLimits: unlockBudgetsOnly });

    // 5,000 tries at one link, 5 from each of 1,000 addresses.
    function* manyAddressesOneLink() {
      for (let round = 0; round < 5; round++) for (let n = 0; n < 1_000; n++) yield passwordTry("/hot-link", address(n), `guess ${round}`);
    }
    // 5,000 tries by 8 addresses, 25 at each of 25 links, in rounds: 80 per link, under its 100.
    const links = Array.from({ length: 25 }, (_, i) => `/link-${i}`);
    const hammerers = Array.from({ length: 8 }, (_, i) => `203.0.113.${i}`);
    function* fewAddressesManyLinks() {
      for (let round = 0; round < 25; round++) for (const link of links) for (const client of hammerers) yield passwordTry(link, client, `guess ${round}`);
    }

    const statuses = { hot: await send(app, manyAddressesOneLink()), spread: await send(app, fewAddressesManyLinks()) };

    expect(statuses).toEqual({ hot: { 401: 100, 429: 4_900 }, spread: { 401: 2_000, 429: 3_000 } });
    const seen = triesSeen(shortener);
    const hotLinkTries = [...seen].filter(([key]) => key.startsWith("/hot-link ")).reduce((sum, [, count]) => sum + count, 0);
    expect(hotLinkTries).toBe(100);
    const perPair = Object.fromEntries(links.flatMap((link) => hammerers.map((client) => [`${link} ${client}`, seen.get(`${link} ${client}`)])));
    expect(perPair).toEqual(Object.fromEntries(Object.keys(perPair).map((key) => [key, 10])));
    expect(shortener.requests).toHaveLength(2_100);

    // One bucket per client and link tried (1,000 + 200) and per link (1 + 25).
    expect(buckets.size).toBe(1_226);
    // An hour on, every bucket is full again, the same as none: the next take's sweep drops them all.
    nowMs += 3_600_000;
    expect(await send(app, [passwordTry("/hot-link", address(0), "guess again")])).toEqual({ 401: 1 });
    expect(buckets.size).toBe(2);
  });

  test("more clients than the store holds keep it at its bound, and the link's budget still holds", async () => {
    await using shortener = startProtectedShortener();
    const buckets = new MemoryTokenBuckets({ now: () => 0, maxBuckets: 500 });
    const app = await unlockGateway({ shortener: shortener.origin, buckets, web, rateLimits: unlockBudgetsOnly });
    let largest = 0;
    function* distinctAddresses() {
      for (let n = 0; n < 10_000; n++) {
        largest = Math.max(largest, buckets.size);
        yield passwordTry("/bounded", address(n), "guess");
      }
    }
    const statuses = await send(app, distinctAddresses());
    largest = Math.max(largest, buckets.size);

    expect(largest).toBe(500);
    // Each try, from a fresh address, reaches the link's bucket, so it is never the least
    // recently used one to go (tries at many other links could: docs/gateway.md, "Rate limits").
    expect(statuses).toEqual({ 401: 100, 429: 9_900 });
    expect(shortener.requests).toHaveLength(100);
  });
});

describe("password tries through two gateways sharing Redis buckets", () => {
  const redis = sharedRedisBuckets("gateway_unlock");
  afterAll(() => redis.dispose());
  const redisBuckets = () => redis.buckets();

  test("share both budgets: 100 tries at a link and 10 per client, whichever gateway each try reaches", async () => {
    await using shortener = startProtectedShortener();
    const gateways = [
      await unlockGateway({ shortener: shortener.origin, buckets: redisBuckets(), web, rateLimits: unlockBudgetsOnly }),
      await unlockGateway({ shortener: shortener.origin, buckets: redisBuckets(), web, rateLimits: unlockBudgetsOnly }),
    ];
    const alternating = async (requests: Request[]) => {
      const statuses: number[] = [];
      for (const [i, request] of requests.entries()) {
        const response = await gateways[i % 2]!.handle(request);
        await response.body?.cancel();
        statuses.push(response.status);
      }
      return statuses;
    };

    const oneClient = await alternating(Array.from({ length: 15 }, (_, i) => passwordTry("/shared-client", "203.0.113.50", `guess ${i}`)));
    expect(oneClient).toEqual([...Array(10).fill(401), ...Array(5).fill(429)]);
    const manyClients = await alternating(Array.from({ length: 150 }, (_, n) => passwordTry("/shared-link", address(n), "guess")));
    expect(manyClients).toEqual([...Array(100).fill(401), ...Array(50).fill(429)]);
    expect(shortener.requests).toHaveLength(110);

    // Redis holds the links and digests, no address.
    const keys = await redis.keys();
    expect(keys.filter((key) => key.includes("198.18.") || key.includes("203.0.113."))).toEqual([]);
    expect(keys).toContain("rate-limit:unlock-link:gateway/shared-link");
    // Each of the 150 clients spent its own first try, the last 50 on a link whose budget was gone.
    expect(keys.filter((key) => key.startsWith("rate-limit:unlock:gateway/shared-link:"))).toHaveLength(150);
  });
});
