import { describe, expect, test } from "bun:test";
import { errorRenderer, silentLogger, type Logger } from "@linkgeo/shared";
import { readJson } from "@linkgeo/testing";
import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import { readGatewayConfig } from "../src/config.ts";
import type { RateRule } from "../src/rate-limit/token-bucket.ts";
import { clientAddress, clientOfRequest, parseIpRangeList } from "@linkgeo/shared";
import { UpstreamUnavailable } from "../src/proxy/upstream-errors.ts";
import { MemoryTokenBuckets } from "../src/rate-limit/memory-token-buckets.ts";
import { rateLimit, type RateClass, type RateLimitOptions } from "../src/rate-limit/rate-limit-plugin.ts";
import type { TokenBuckets } from "../src/rate-limit/token-bucket.ts";

const twoPerTwentySeconds: RateRule = { capacity: 2, perSecond: 0.1 };
const rules = { create: { capacity: 1, perSecond: 0.1 }, api: twoPerTwentySeconds };

/** Roughly the gateway's routes: POST /shorten creates, /r/<code> redirects, /health is free, the rest is API. */
function classify(request: Request): RateClass | undefined {
  const path = new URL(request.url).pathname;
  if (path === "/health") return undefined;
  if (path.startsWith("/shorten") && request.method === "POST") return "create";
  if (path.startsWith("/r/")) return "redirect";
  return "api";
}

// `app.handle` has no socket: the test names the peer in a header of its own.
const trustedProxies = parseIpRangeList("127.0.0.1/8, 10.0.0.0/8");
const peerFromTestHeader = (request: Request) =>
  clientAddress(request.headers.get("x-test-peer") ?? undefined, request.headers.get("x-forwarded-for"), trustedProxies);

function testApp(options: Partial<RateLimitOptions> = {}) {
  const handled = { count: 0 };
  let lastBuilt: Response | undefined;
  const app = new Elysia()
    .use(errorRenderer({ log: silentLogger }))
    .use(
      rateLimit({
        buckets: new MemoryTokenBuckets({ now: () => 0 }),
        rules,
        classify,
        clientAddressOf: peerFromTestHeader,
        digestAddress: (address) => `digest-of-${address}`,
        log: silentLogger,
        ...options,
      }),
    )
    .onBeforeHandle(() => {
      handled.count++;
    })
    .get("/object", () => ({ ok: true }))
    // What a proxy returns: a Response with the upstream's own headers.
    .get("/proxied", () => (lastBuilt = new Response("from upstream", { status: 201, headers: { "x-upstream": "yes" } })))
    .get("/failing", () => {
      throw UpstreamUnavailable.noReplicas("shortener");
    })
    .post("/shorten", () => ({ created: true }))
    .get("/r/:code", () => new Response(null, { status: 302, headers: { location: "https://example.com/" } }))
    .get("/health", () => ({ status: "ok" }));
  return { app, handled, lastBuilt: () => lastBuilt };
}

const request = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  new Request(`http://gateway${path}`, { method, headers: { "x-test-peer": "203.0.113.7", ...headers } });

const rateLimitHeaders = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => name.startsWith("ratelimit-") || name === "retry-after"));

describe("rate limit plugin", () => {
  test("answers 429 rate_limited with Retry-After and RateLimit-* once the bucket is empty, without calling the handler", async () => {
    const { app, handled } = testApp();
    await app.handle(request("/object"));
    await app.handle(request("/object"));
    const refused = await app.handle(request("/object"));

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
    expect(handled.count).toBe(2);
  });

  test("puts RateLimit-* on allowed responses, plain values and Responses the handler built alike", async () => {
    const { app, lastBuilt } = testApp();
    const plain = await app.handle(request("/object"));
    expect(plain.status).toBe(200);
    expect(await readJson(plain)).toEqual({ ok: true });
    expect(rateLimitHeaders(plain)).toEqual({ "ratelimit-limit": "2", "ratelimit-remaining": "1", "ratelimit-reset": "10", "ratelimit-policy": "2;w=20" });

    const proxied = await app.handle(request("/proxied"));
    expect(proxied.status).toBe(201);
    expect(await proxied.text()).toBe("from upstream");
    expect(proxied.headers.get("x-upstream")).toBe("yes");
    expect(rateLimitHeaders(proxied)).toEqual({ "ratelimit-limit": "2", "ratelimit-remaining": "0", "ratelimit-reset": "20", "ratelimit-policy": "2;w=20" });
    // The headers went onto the handler's own Response: Elysia did not copy it.
    expect(proxied).toBe(lastBuilt()!);
  });

  test("error answers to an allowed request carry RateLimit-* too", async () => {
    const { app } = testApp();
    const failing = await app.handle(request("/failing"));
    expect(failing.status).toBe(502);
    expect(await readJson(failing)).toEqual({ error: { code: "upstream_unavailable", message: "the shortener service is unavailable, try again shortly" } });
    expect(rateLimitHeaders(failing)).toEqual({ "ratelimit-limit": "2", "ratelimit-remaining": "1", "ratelimit-reset": "10", "ratelimit-policy": "2;w=20" });

    // Unknown paths are API calls: probing them spends the same budget.
    const unknown = await app.handle(request("/no-such-thing"));
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("ratelimit-remaining")).toBe("0");
    expect((await app.handle(request("/object"))).status).toBe(429);
  });

  test("a class without a rule, or no class, is not limited and gets no headers", async () => {
    const { app } = testApp();
    for (let i = 0; i < 5; i++) {
      const redirect = await app.handle(request("/r/Ab3dE9x"));
      expect(redirect.status).toBe(302);
      expect(rateLimitHeaders(redirect)).toEqual({});
      const health = await app.handle(request("/health"));
      expect(health.status).toBe(200);
      expect(rateLimitHeaders(health)).toEqual({});
    }
  });

  test("with the configuration's defaults: 20 links at once, then one every 3 seconds; 120 API calls at once", async () => {
    const { app } = testApp({ rules: readGatewayConfig({}).rateLimits });
    const created = [];
    for (let i = 0; i < 21; i++) created.push(await app.handle(request("/shorten", {}, "POST")));
    expect(created.slice(0, 20).map((response) => response.status)).toEqual(Array(20).fill(200));
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
    expect(rateLimitHeaders(await app.handle(request("/object")))).toEqual({
      "ratelimit-limit": "120",
      "ratelimit-remaining": "119",
      "ratelimit-reset": "1",
      "ratelimit-policy": "120;w=60",
    });
    expect(rateLimitHeaders(await app.handle(request("/r/Ab3dE9x")))).toEqual({});
  });

  test("a configured redirect rule limits redirects", async () => {
    const { app } = testApp({ rules: { ...rules, redirect: { capacity: 1, perSecond: 1 } } });
    const first = await app.handle(request("/r/Ab3dE9x"));
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe("https://example.com/");
    expect(rateLimitHeaders(first)).toEqual({ "ratelimit-limit": "1", "ratelimit-remaining": "0", "ratelimit-reset": "1", "ratelimit-policy": "1;w=1" });
    expect((await app.handle(request("/r/Ab3dE9x"))).status).toBe(429);
  });

  test("each class has its own budget per client", async () => {
    const { app } = testApp();
    expect((await app.handle(request("/shorten", {}, "POST"))).status).toBe(200);
    expect((await app.handle(request("/shorten", {}, "POST"))).status).toBe(429);
    expect((await app.handle(request("/object"))).status).toBe(200);
    expect((await app.handle(request("/shorten", { "x-test-peer": "203.0.113.8" }, "POST"))).status).toBe(200);
  });

  test("believes X-Forwarded-For only from a trusted proxy", async () => {
    const { app } = testApp();
    // An untrusted client cannot buy a fresh budget by inventing addresses.
    const statuses = [];
    for (const forged of ["1.1.1.1", "2.2.2.2", "3.3.3.3"]) {
      statuses.push((await app.handle(request("/object", { "x-forwarded-for": forged }))).status);
    }
    expect(statuses).toEqual([200, 200, 429]);

    // Behind the trusted proxy, each client has its own budget.
    const viaProxy = (client: string) => app.handle(request("/object", { "x-test-peer": "10.0.0.5", "x-forwarded-for": client }));
    expect([(await viaProxy("198.51.100.1")).status, (await viaProxy("198.51.100.1")).status, (await viaProxy("198.51.100.1")).status]).toEqual([
      200, 200, 429,
    ]);
    expect((await viaProxy("198.51.100.2")).status).toBe(200);
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
    const { app } = testApp({ buckets: broken, log });
    for (let i = 0; i < 3; i++) {
      const response = await app.handle(request("/object"));
      expect(response.status).toBe(200);
      expect(rateLimitHeaders(response)).toEqual({});
    }
    expect(warnings).toEqual(["rate limit check failed: requests pass unlimited"]);
  });
});

describe("rate limit plugin over a real socket", () => {
  interface ListeningGateway extends AsyncDisposable {
    get: (forwardedFor?: string) => Promise<Response>;
    /** The socket peer `requestIP` reported, per request. */
    peers: Array<string | undefined>;
  }

  function listening(trusted: string[]): ListeningGateway {
    const peers: Array<string | undefined> = [];
    const clientOf = clientOfRequest(parseIpRangeList(trusted.join(",")));
    const { app } = testApp({
      clientAddressOf: (request: Request, server: Server | null) => {
        peers.push(server?.requestIP(request)?.address);
        return clientOf(request, server).address;
      },
    });
    app.listen({ port: 0, hostname: "127.0.0.1" });
    // Bun reports the peer of an IPv4 socket as IPv4; a dual-stack listener would say ::ffff:127.0.0.1.
    const base = `http://127.0.0.1:${app.server!.port}`;
    const get = async (forwardedFor?: string) => {
      const response = await fetch(`${base}/proxied`, forwardedFor === undefined ? {} : { headers: { "x-forwarded-for": forwardedFor } });
      await response.arrayBuffer();
      return response;
    };
    const stop = async () => {
      await app.stop(true);
    };
    return { get, peers, [Symbol.asyncDispose]: stop };
  }

  test("takes the peer from the socket and believes its X-Forwarded-For when it is a trusted proxy", async () => {
    await using gateway = listening(["127.0.0.1/8"]);
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
    await using gateway = listening([]);
    const statuses = [];
    for (const forged of ["1.1.1.1", "2.2.2.2", "3.3.3.3"]) statuses.push((await gateway.get(forged)).status);
    expect(statuses).toEqual([201, 201, 429]);
  });
});
