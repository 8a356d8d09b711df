import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { clientOf, clientOfRequest, maxBodyBytes, parseIpRangeList, silentLogger, type Client, type Logger } from "@linkgeo/shared";
import { readJson } from "@linkgeo/testing";
import { buildWebAssets, type WebAssets } from "@linkgeo/webapp";
import type { Server } from "elysia/universal";
import { createApp, type GatewayDeps } from "../src/app.ts";
import { readGatewayConfig } from "../src/config.ts";
import { MemoryTokenBuckets } from "@linkgeo/shared/rate-limit";
import type { RateRule, TokenBuckets } from "@linkgeo/shared/rate-limit";
import { UpstreamPool } from "../src/upstreams/upstream-pool.ts";
import { startFakeUpstream, type FakeUpstream } from "./support/fake-upstream.ts";

const twoPerTwentySeconds: RateRule = { capacity: 2, perSecond: 0.1 };
const rules = { create: { capacity: 1, perSecond: 0.1 }, api: twoPerTwentySeconds };

// `app.handle` has no socket: the test names the peer in a header of its own.
const trustedProxies = parseIpRangeList("127.0.0.1/8, 10.0.0.0/8");
const peerFromTestHeader = (request: Request) =>
  clientOf(request.headers.get("x-test-peer") ?? undefined, request.headers.get("x-forwarded-for"), trustedProxies);

/** A key the shortener does not take. */
const refusedKey = "lgk_made_up";

/** Answers every request 201 with a header of its own, but a link's redirect and a refused key; the geocoder has no replica that answers. */
let shortener: FakeUpstream;
let web: WebAssets;
beforeAll(async () => {
  shortener = startFakeUpstream((request) => {
    const path = new URL(request.url).pathname;
    if (request.method === "GET" && /^\/\w+$/.test(path)) return new Response(null, { status: 302, headers: { location: "https://example.com/" } });
    if (request.headers.get("authorization") === `Bearer ${refusedKey}`) return Response.json({ error: { code: "unauthorized" } }, { status: 401 });
    return new Response("from upstream", { status: 201, headers: { "x-upstream": "yes" } });
  });
  web = await buildWebAssets();
});
afterAll(() => shortener.stop());

async function testApp(options: Partial<GatewayDeps> = {}) {
  const pool = (name: string, urls: string[]) => new UpstreamPool({ name, urls, refreshMs: 60_000, log: silentLogger });
  const upstreams = { shortener: pool("shortener", [shortener.origin]), geocoder: pool("geocoder", ["http://127.0.0.1:1"]) };
  await Promise.all([upstreams.shortener.start(), upstreams.geocoder.start()]);
  return createApp({
    upstreams,
    buckets: new MemoryTokenBuckets({ now: () => 0 }),
    rateLimits: rules,
    clientOf: peerFromTestHeader,
    digestAddress: (address) => `digest-of-${address}`,
    upstreamTimeoutMs: 2_000,
    log: silentLogger,
    clock: () => new Date(),
    web,
    ...options,
  });
}

/** A request the shortener answers and the route table counts as an API call. */
const apiCall = "/shorten/abc1234/stats/";

const request = (path: string, headers: Record<string, string> = {}, method = "GET", body?: string) =>
  new Request(`http://gateway${path}`, { method, headers: { "x-test-peer": "203.0.113.7", ...headers }, body });

const rateLimitHeaders = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => name.startsWith("ratelimit-") || name === "retry-after"));

describe("admission's budgets, through the gateway", () => {
  test("answers 429 rate_limited with Retry-After and RateLimit-* once the bucket is empty, and the request never reaches the upstream", async () => {
    const app = await testApp();
    const before = shortener.requests.length;
    await app.handle(request(apiCall));
    await app.handle(request(apiCall));
    const refused = await app.handle(request(apiCall));

    expect(refused.status).toBe(429);
    expect(await readJson(refused)).toEqual({ error: { code: "rate_limited", message: "too many requests, retry in 10 seconds" } });
    expect(rateLimitHeaders(refused)).toEqual({
      "retry-after": "10",
      "ratelimit-limit": "2",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "20",
      "ratelimit-policy": "2;w=20",
    });
    expect(refused.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(refused.headers.get("x-request-id")).toBeTruthy();
    expect(shortener.requests.length - before).toBe(2);
  });

  test("puts RateLimit-* on the upstream's answer, which keeps its own status, headers and body", async () => {
    const app = await testApp();
    const proxied = await app.handle(request(apiCall));
    expect(proxied.status).toBe(201);
    expect(await proxied.text()).toBe("from upstream");
    expect(proxied.headers.get("x-upstream")).toBe("yes");
    expect(rateLimitHeaders(proxied)).toEqual({ "ratelimit-limit": "2", "ratelimit-remaining": "1", "ratelimit-reset": "10", "ratelimit-policy": "2;w=20" });
  });

  test("error answers to an admitted request carry RateLimit-* too: no replica, a body over the limit", async () => {
    const app = await testApp();
    const failing = await app.handle(request("/geocoders"));
    expect(failing.status).toBe(502);
    expect((await readJson(failing)).error.code).toBe("upstream_unavailable");
    expect(rateLimitHeaders(failing)).toEqual({ "ratelimit-limit": "2", "ratelimit-remaining": "1", "ratelimit-reset": "10", "ratelimit-policy": "2;w=20" });

    const oversized = await app.handle(request(apiCall, { "content-type": "application/json" }, "PUT", "x".repeat(maxBodyBytes + 1)));
    expect(oversized.status).toBe(413);
    expect(oversized.headers.get("ratelimit-remaining")).toBe("0");
    expect((await app.handle(request(apiCall))).status).toBe(429);
  });

  test("a class without a rule, a path with no route and the gateway's own pages are not limited and get no headers", async () => {
    const app = await testApp();
    for (let i = 0; i < 5; i++) {
      const redirect = await app.handle(request("/Ab3dE9x"));
      expect(redirect.status).toBe(302);
      expect(rateLimitHeaders(redirect)).toEqual({});
      const unknown = await app.handle(request("/a/b/c"));
      expect(unknown.status).toBe(404);
      expect(rateLimitHeaders(unknown)).toEqual({});
      const health = await app.handle(request("/health"));
      expect(health.status).toBe(200);
      expect(rateLimitHeaders(health)).toEqual({});
    }
  });

  test("with the configuration's defaults: 20 links at once, then one every 3 seconds; 120 API calls at once", async () => {
    const app = await testApp({ rateLimits: readGatewayConfig({}).rateLimits });
    const created = [];
    for (let i = 0; i < 21; i++) created.push(await app.handle(request("/shorten/", { "content-type": "application/json" }, "POST", "{}")));
    expect(created.slice(0, 20).map((response) => response.status)).toEqual(Array(20).fill(201));
    expect(rateLimitHeaders(created[0]!)).toEqual({
      "ratelimit-limit": "20",
      "ratelimit-remaining": "19",
      "ratelimit-reset": "3",
      "ratelimit-policy": "20;w=60",
    });
    expect(rateLimitHeaders(created[20]!)).toEqual({
      "retry-after": "3",
      "ratelimit-limit": "20",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "60",
      "ratelimit-policy": "20;w=60",
    });
    expect(rateLimitHeaders(await app.handle(request(apiCall)))).toEqual({
      "ratelimit-limit": "120",
      "ratelimit-remaining": "119",
      "ratelimit-reset": "1",
      "ratelimit-policy": "120;w=60",
    });
    expect(rateLimitHeaders(await app.handle(request("/Ab3dE9x")))).toEqual({});
  });

  test("a configured redirect rule limits redirects", async () => {
    const app = await testApp({ rateLimits: { ...rules, redirect: { capacity: 1, perSecond: 1 } } });
    const first = await app.handle(request("/Ab3dE9x"));
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe("https://example.com/");
    expect(rateLimitHeaders(first)).toEqual({ "ratelimit-limit": "1", "ratelimit-remaining": "0", "ratelimit-reset": "1", "ratelimit-policy": "1;w=1" });
    expect((await app.handle(request("/Ab3dE9x"))).status).toBe(429);
  });

  test("each class has its own budget per client", async () => {
    const app = await testApp();
    const create = (headers: Record<string, string> = {}) => app.handle(request("/shorten/", { "content-type": "application/json", ...headers }, "POST", "{}"));
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(429);
    expect((await app.handle(request(apiCall))).status).toBe(201);
    expect((await create({ "x-test-peer": "203.0.113.8" })).status).toBe(201);
  });

  test("believes X-Forwarded-For only from a trusted proxy", async () => {
    const app = await testApp();
    // An untrusted client cannot buy a fresh budget by inventing addresses.
    const statuses = [];
    for (const forged of ["1.1.1.1", "2.2.2.2", "3.3.3.3"]) statuses.push((await app.handle(request(apiCall, { "x-forwarded-for": forged }))).status);
    expect(statuses).toEqual([201, 201, 429]);

    // Behind the trusted proxy, each client has its own budget.
    const viaProxy = (client: string) => app.handle(request(apiCall, { "x-test-peer": "10.0.0.5", "x-forwarded-for": client }));
    expect([(await viaProxy("198.51.100.1")).status, (await viaProxy("198.51.100.1")).status, (await viaProxy("198.51.100.1")).status]).toEqual([
      201, 201, 429,
    ]);
    expect((await viaProxy("198.51.100.2")).status).toBe(201);
  });

  test("lets requests through unlimited, with a warning, should the buckets ever fail", async () => {
    const warnings: string[] = [];
    const log: Logger = { ...silentLogger, warn: (message) => warnings.push(message) };
    const broken: TokenBuckets = {
      take: async () => {
        throw new Error("boom");
      },
      peek: async () => {
        throw new Error("boom");
      },
    };
    const app = await testApp({ buckets: broken, log });
    for (let i = 0; i < 3; i++) {
      const response = await app.handle(request(apiCall));
      expect(response.status).toBe(201);
      expect(rateLimitHeaders(response)).toEqual({});
    }
    expect(warnings).toEqual(["rate limit check failed: requests pass unlimited"]);
  });
});

/** Token buckets that remember every bucket asked, in order ("take key" or "peek key"). */
function recordingBuckets() {
  const memory = new MemoryTokenBuckets({ now: () => 0 });
  const asked: string[] = [];
  const buckets: TokenBuckets = {
    take: (key, rule, cost) => {
      asked.push(`take ${key}`);
      return memory.take(key, rule, cost);
    },
    peek: (key, rule) => {
      asked.push(`peek ${key}`);
      return memory.peek(key, rule);
    },
  };
  return { buckets, asked };
}

/** A body that counts the chunks read from it (16 KiB each, `chunks` of them); nothing is read before someone asks. */
function countedBody(chunks: number) {
  const read = { chunks: 0 };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (read.chunks === chunks) return controller.close();
        read.chunks++;
        controller.enqueue(new TextEncoder().encode(" ".repeat(16 * 1024)));
      },
    },
    { highWaterMark: 0 },
  );
  return { body, read };
}

describe("the walk of a request: admit, then forward", () => {
  const streamed = (path: string, method: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
    new Request(`http://gateway${path}`, { method, headers: { "x-test-peer": "203.0.113.9", ...headers }, body, duplex: "half" } as RequestInit);

  test("a request refused at admission is never forwarded and not a byte of its body is read", async () => {
    const app = await testApp();
    await app.handle(request(apiCall, { "x-test-peer": "203.0.113.9" }));
    const admitted = countedBody(2);
    expect((await app.handle(streamed(apiCall, "PUT", admitted.body, { "content-type": "application/json" }))).status).toBe(201);
    // The admitted one was read whole before it was sent.
    expect(admitted.read.chunks).toBe(2);

    const before = shortener.requests.length;
    const refused = countedBody(2);
    expect((await app.handle(streamed(apiCall, "PUT", refused.body, { "content-type": "application/json" }))).status).toBe(429);
    expect(refused.read.chunks).toBe(0);
    expect(shortener.requests.length).toBe(before);
  });

  test("an admitted body is read no further than its limit, and what is over it never reaches the upstream", async () => {
    const app = await testApp();
    const before = shortener.requests.length;
    const endless = countedBody(1_000);
    const response = await app.handle(streamed(apiCall, "PUT", endless.body, { "content-type": "application/json" }));
    expect(response.status).toBe(413);
    // 64 KiB is four chunks: the fifth is where it stops.
    expect(endless.read.chunks).toBe(5);
    expect(shortener.requests.length).toBe(before);
  });

  test("the budgets are taken in one order, each before the next, and a refusal spares every later one", async () => {
    const { buckets, asked } = recordingBuckets();
    const rateLimits = readGatewayConfig({}).rateLimits;
    const app = await testApp({ buckets, rateLimits: { ...rateLimits, login: { capacity: 1, perSecond: 0.01 } } });
    const json = { "content-type": "application/json" };
    const walk = async (sent: Request) => {
      asked.length = 0;
      return { status: (await app.handle(sent)).status, asked: [...asked] };
    };
    const client = "digest-of-203.0.113.7";
    const user = expect.stringMatching(/^take login-user:[0-9a-f]{32}$/);

    expect(await walk(request("/Abc123", { "content-type": "application/x-www-form-urlencoded" }, "POST", "password=no"))).toEqual({
      status: 201,
      asked: [`take api:${client}`, `take unlock:gateway/Abc123:${client}`, "take unlock-link:gateway/Abc123"],
    });
    expect(await walk(request("/admin/login", json, "POST", '{"username":"ada","password":"no"}'))).toEqual({
      status: 201,
      asked: [`take login:${client}`, user],
    });
    expect(await walk(request("/admin/login", json, "POST", '{"username":"ada","password":"no"}'))).toEqual({ status: 429, asked: [`take login:${client}`] });
    // The geocoder has no replica here: 502, after its points were taken.
    expect(await walk(request("/reverse-geocode/batch", json, "POST", '{"points":[{"latitude":1,"longitude":2}]}'))).toEqual({
      status: 502,
      asked: [`take api:${client}`, `take points:${client}`],
    });
    // A key on a route that reads it first: the address's bad keys looked at, the key's budget taken; once the shortener refused it, a bad key counted.
    expect(await walk(request("/shorten/", { authorization: `Bearer ${refusedKey}` }))).toEqual({
      status: 401,
      asked: [`peek bad-key:${client}`, `take key:digest-of-${refusedKey}`, `take bad-key:${client}`],
    });
  });
});

describe("admission's budgets over a real socket", () => {
  interface ListeningGateway extends AsyncDisposable {
    get: (forwardedFor?: string) => Promise<Response>;
    /** The socket peer `requestIP` reported, per request. */
    peers: Array<string | undefined>;
  }

  async function listening(trusted: string[]): Promise<ListeningGateway> {
    const peers: Array<string | undefined> = [];
    const clientOf = clientOfRequest(parseIpRangeList(trusted.join(",")));
    const app = await testApp({
      clientOf: (request: Request, server: Server | null): Client => {
        peers.push(server?.requestIP(request)?.address);
        return clientOf(request, server);
      },
    });
    app.listen({ port: 0, hostname: "127.0.0.1" });
    // Bun reports the peer of an IPv4 socket as IPv4; a dual-stack listener would say ::ffff:127.0.0.1.
    const base = `http://127.0.0.1:${app.server!.port}`;
    const get = async (forwardedFor?: string) => {
      const response = await fetch(`${base}${apiCall}`, forwardedFor === undefined ? {} : { headers: { "x-forwarded-for": forwardedFor } });
      await response.arrayBuffer();
      return response;
    };
    const stop = async () => {
      await app.stop(true);
    };
    return { get, peers, [Symbol.asyncDispose]: stop };
  }

  test("takes the peer from the socket and believes its X-Forwarded-For when it is a trusted proxy", async () => {
    await using gateway = await listening(["127.0.0.1/8"]);
    const first = await gateway.get("198.51.100.1");
    expect(first.status).toBe(201);
    expect(first.headers.get("x-upstream")).toBe("yes");
    expect(first.headers.get("ratelimit-remaining")).toBe("1");
    expect((await gateway.get("198.51.100.1")).status).toBe(201);
    expect((await gateway.get("198.51.100.1")).status).toBe(429);
    // Another client behind the same proxy, and the proxy's own requests, have their own budgets.
    expect((await gateway.get("198.51.100.2")).status).toBe(201);
    expect((await gateway.get()).status).toBe(201);
    expect(gateway.peers).toEqual(Array(5).fill("127.0.0.1"));
  });

  test("ignores X-Forwarded-For from a peer it does not trust", async () => {
    await using gateway = await listening([]);
    const statuses = [];
    for (const forged of ["1.1.1.1", "2.2.2.2", "3.3.3.3"]) statuses.push((await gateway.get(forged)).status);
    expect(statuses).toEqual([201, 201, 429]);
  });
});
