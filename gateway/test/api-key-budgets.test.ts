import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLogger, errorBody } from "@linkgeo/shared";
import { waitFor } from "@linkgeo/testing";
import { readGatewayConfig } from "../src/config.ts";
import { addressDigest } from "../src/rate-limit/address-digest.ts";
import { apiKeyOf } from "../src/rate-limit/api-key-budgets.ts";
import { MemoryTokenBuckets } from "@linkgeo/shared/rate-limit";
import type { RateRule, TokenBuckets } from "@linkgeo/shared/rate-limit";
import { buildWebAssets, type WebAssets } from "@linkgeo/webapp";
import { startFakeUpstream, type FakeUpstream } from "./support/fake-upstream.ts";
import { sharedRedisBuckets } from "./support/shared-redis-buckets.ts";
import { unlockGateway } from "./support/unlock-gateway.ts";

/** Two keys the fake shortener knows, shaped as the real ones (`lgk_` and 43 base64url characters). */
const keyA = `lgk_${"A".repeat(43)}`;
const keyB = `lgk_${"B".repeat(43)}`;
const madeUp = (n: number) => `lgk_${String(n).padStart(43, "x")}`;

/** Small budgets, refilled slowly, so a test counts them out: 3 per key, 4 per address, 2 refused keys. */
const rateLimits = {
  ...readGatewayConfig({}).rateLimits,
  api: { capacity: 4, perSecond: 1 / 600 },
  key: { capacity: 3, perSecond: 1 / 600 },
  badKey: { capacity: 2, perSecond: 1 / 600 },
};

let web: WebAssets;
let shortener: FakeUpstream;
beforeAll(async () => {
  web = await buildWebAssets();
  // The shortener as the gateway sees it: a known key is answered, any other lgk_ token is 401; no credential is a listing refused 401 too,
  // except on a link's public record.
  shortener = startFakeUpstream((request) => {
    const key = apiKeyOf(request);
    // The route's schema refuses a bad query before the handler reads any credential.
    if (new URL(request.url).searchParams.get("page") === "first") return Response.json(errorBody("invalid_request", "page must be a number"), { status: 400 });
    if (key === keyA || key === keyB) return Response.json({ results: [] });
    if (new URL(request.url).pathname.startsWith("/shorten/public")) return Response.json({ short_url: "public" });
    if (key === undefined && request.headers.get("authorization") === null) return Response.json({ results: [] });
    return Response.json(errorBody("unauthorized", "the API key is unknown, revoked or expired"), { status: 401 });
  });
});
afterAll(() => shortener.stop());

/** Token buckets on a clock that stands still, that remember every key they were asked for. */
function testBuckets() {
  const memory = new MemoryTokenBuckets({ now: () => 0 });
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
  return { buckets, keys };
}

/** `GET /shorten/` (the listing: the shortener reads the credential first) from `client`, with `key` when given. */
function listing(client: string, key?: string, path = "/shorten/"): Request {
  const headers: Record<string, string> = { "x-forwarded-for": client };
  if (key) headers.authorization = `Bearer ${key}`;
  return new Request(`http://gateway${path}`, { headers });
}

type App = { handle: (request: Request) => Promise<Response> };

async function statuses(app: App, requests: Request[]): Promise<number[]> {
  const answered: number[] = [];
  for (const request of requests) {
    const response = await app.handle(request);
    await response.body?.cancel();
    answered.push(response.status);
  }
  return answered;
}

const times = <T>(n: number, make: (i: number) => T) => Array.from({ length: n }, (_, i) => make(i));

describe("a request with an API key draws on its key's budget", () => {
  test("two keys from one address each have their own, beside the address's", async () => {
    const app = await unlockGateway({ shortener: shortener.origin, buckets: testBuckets().buckets, web, rateLimits });
    expect(
      await statuses(
        app,
        times(4, () => listing("203.0.113.1", keyA)),
      ),
    ).toEqual([200, 200, 200, 429]);
    expect(
      await statuses(
        app,
        times(4, () => listing("203.0.113.1", keyB)),
      ),
    ).toEqual([200, 200, 200, 429]);
    // The address's own budget is untouched by its keys.
    expect(
      await statuses(
        app,
        times(5, () => listing("203.0.113.1")),
      ),
    ).toEqual([200, 200, 200, 200, 429]);
  });

  test("one key from two addresses has one budget, and the answers say so in RateLimit-*", async () => {
    const app = await unlockGateway({ shortener: shortener.origin, buckets: testBuckets().buckets, web, rateLimits });
    const first = await app.handle(listing("203.0.113.2", keyA));
    expect(Object.fromEntries([...first.headers].filter(([name]) => name.startsWith("ratelimit-")))).toEqual({
      "ratelimit-limit": "3",
      "ratelimit-remaining": "2",
      "ratelimit-reset": "600",
      "ratelimit-policy": "3;w=1800",
    });
    expect(await statuses(app, [listing("198.51.100.2", keyA), listing("203.0.113.2", keyA), listing("198.51.100.2", keyA)])).toEqual([200, 200, 429]);
    expect(await statuses(app, [listing("198.51.100.2")])).toEqual([200]);
  });

  test("where the shortener may answer without reading the key (a link's public record), the address's budget applies", async () => {
    const { buckets, keys } = testBuckets();
    const app = await unlockGateway({ shortener: shortener.origin, buckets, web, rateLimits });
    expect(
      await statuses(
        app,
        times(5, (i) => listing("203.0.113.3", madeUp(i), "/shorten/public/")),
      ),
    ).toEqual([200, 200, 200, 200, 429]);
    // The address's own budget, keyed by its digest: no bucket key holds an address.
    expect([...keys]).toEqual([expect.stringMatching(/^api:[A-Za-z0-9_-]{22}$/)]);
  });

  test("RATE_LIMIT_KEY=off: keys spend their address's budget, as before there were any", async () => {
    const app = await unlockGateway({ shortener: shortener.origin, buckets: testBuckets().buckets, web, rateLimits: { ...rateLimits, key: undefined } });
    expect(await statuses(app, [...times(3, () => listing("203.0.113.4", keyA)), ...times(2, () => listing("203.0.113.4", keyB))])).toEqual([
      200, 200, 200, 200, 429,
    ]);
  });
});

describe("a bad key counts against the address", () => {
  test("made-up keys from one address: the refused ones spend its bad-key budget, then its keys spend its own budget until it is gone", async () => {
    const app = await unlockGateway({ shortener: shortener.origin, buckets: testBuckets().buckets, web, rateLimits });
    // Two refused keys on their own budgets, then four on the address's, then nothing.
    expect(
      await statuses(
        app,
        times(8, (i) => listing("203.0.113.5", madeUp(i))),
      ),
    ).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
    // The address is spent for everything: a real key and no key alike.
    expect(await statuses(app, [listing("203.0.113.5", keyA), listing("203.0.113.5")])).toEqual([429, 429]);
    // Another address with the same real key still has the key's whole budget.
    expect(
      await statuses(
        app,
        times(4, () => listing("198.51.100.5", keyA)),
      ),
    ).toEqual([200, 200, 200, 429]);
  });

  test("so does the 400 a request gets before the shortener reads its key, whatever the key", async () => {
    const app = await unlockGateway({ shortener: shortener.origin, buckets: testBuckets().buckets, web, rateLimits });
    const badQuery = (key: string) => listing("203.0.113.10", key, "/shorten/?page=first");
    expect(await statuses(app, [badQuery(madeUp(1)), badQuery(madeUp(2)), badQuery(madeUp(3)), badQuery(keyA)])).toEqual([400, 400, 400, 400]);
    // The first two spent the bad-key budget: the address's keys now spend its own (4, two of them gone).
    expect(
      await statuses(
        app,
        times(3, () => listing("203.0.113.10", keyB)),
      ),
    ).toEqual([200, 200, 429]);
  });

  test("a real key behind an address that sent bad ones shares the address's budget, and gets its own back as the bad-key budget refills", async () => {
    let nowMs = 0;
    const buckets = new MemoryTokenBuckets({ now: () => nowMs });
    const app = await unlockGateway({ shortener: shortener.origin, buckets, web, rateLimits });
    expect(
      await statuses(
        app,
        times(2, (i) => listing("203.0.113.6", madeUp(i))),
      ),
    ).toEqual([401, 401]);
    expect(
      await statuses(
        app,
        times(5, () => listing("203.0.113.6", keyA)),
      ),
    ).toEqual([200, 200, 200, 200, 429]);
    // One refused key is back after 600 s (and one token of every other budget).
    nowMs += 600_000;
    expect(
      await statuses(
        app,
        times(4, () => listing("203.0.113.6", keyA)),
      ),
    ).toEqual([200, 200, 200, 429]);
  });

  test("RATE_LIMIT_BAD_KEY=off: a refused key costs the address nothing", async () => {
    const app = await unlockGateway({ shortener: shortener.origin, buckets: testBuckets().buckets, web, rateLimits: { ...rateLimits, badKey: undefined } });
    expect(
      await statuses(
        app,
        times(10, (i) => listing("203.0.113.7", madeUp(i))),
      ),
    ).toEqual(Array(10).fill(401));
    expect(
      await statuses(
        app,
        times(5, () => listing("203.0.113.7")),
      ),
    ).toEqual([200, 200, 200, 200, 429]);
  });
});

describe("keys and addresses stay out of bucket keys and logs", () => {
  test("bucket keys hold keyed digests; no key, no address; no log line holds a key", async () => {
    const { buckets, keys } = testBuckets();
    const digest = addressDigest("k".repeat(32));
    const lines: string[] = [];
    const log = createLogger({ service: "gateway", level: "debug", format: "json", write: (line) => lines.push(line) });
    const app = await unlockGateway({ shortener: shortener.origin, buckets, web, rateLimits, digestAddress: digest, log, accessLog: true });

    await statuses(app, [...times(4, () => listing("203.0.113.8", keyA)), ...times(3, (i) => listing("203.0.113.8", madeUp(i)))]);

    expect([...keys].sort()).toEqual(
      [
        `key:${digest(keyA)}`,
        `key:${digest(madeUp(0))}`,
        `key:${digest(madeUp(1))}`,
        `bad-key:${digest("203.0.113.8")}`,
        `api:${digest("203.0.113.8")}`,
      ].sort(),
    );
    expect([...keys].filter((key) => key.includes("lgk_") || key.includes("AAAA") || key.includes("203.0.113"))).toEqual([]);
    await waitFor("an access line per request", () => lines.filter((line) => line.includes('"/shorten/"')).length === 7);
    expect(lines.some((line) => line.includes("rate limited"))).toBe(true);
    expect(lines.filter((line) => line.includes("lgk_") || line.includes("AAAA") || line.includes("xxxx"))).toEqual([]);
  });
});

describe("through two gateways sharing Redis buckets", () => {
  const redis = sharedRedisBuckets("gateway_keys");
  afterAll(() => redis.dispose());
  const redisBuckets = () => redis.buckets();

  test("a key's budget and an address's bad keys are one, whichever gateway each request reaches; Redis holds no key and no address", async () => {
    const digest = addressDigest("a secret both replicas share".padEnd(32, "!"));
    const gateways = [
      await unlockGateway({ shortener: shortener.origin, buckets: redisBuckets(), web, rateLimits, digestAddress: digest }),
      await unlockGateway({ shortener: shortener.origin, buckets: redisBuckets(), web, rateLimits, digestAddress: digest }),
    ];
    const alternating = async (requests: Request[]) => {
      const answered: number[] = [];
      for (const [i, request] of requests.entries()) answered.push(...(await statuses(gateways[i % 2]!, [request])));
      return answered;
    };

    expect(await alternating(times(4, (i) => listing(`198.51.100.${10 + i}`, keyB)))).toEqual([200, 200, 200, 429]);
    expect(await alternating(times(8, (i) => listing("203.0.113.9", madeUp(100 + i))))).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);

    const keys = await redis.keys();
    expect(keys).toContain(`rate-limit:key:${digest(keyB)}`);
    expect(keys).toContain(`rate-limit:bad-key:${digest("203.0.113.9")}`);
    expect(keys.filter((key) => key.includes("lgk_") || key.includes("BBBB") || key.includes("xxxx") || key.includes("198.51.100."))).toEqual([]);
  });
});
