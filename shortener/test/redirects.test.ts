import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { deleteKeysWithPrefix, readJson, testRedisUrl, uniqueRedisPrefix, waitFor } from "@linkgeo/testing";
import Redis from "ioredis";
import type { LinkCache } from "../src/cache/link-cache.ts";
import { MemoryLinkCache } from "../src/cache/memory-link-cache.ts";
import { RedisLinkCache } from "../src/cache/redis-link-cache.ts";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";
import { decodeDestination } from "../src/links/destination.ts";
import { redirectRoutes } from "../src/links/redirect-routes.ts";

/** A cache's methods as plain functions, so a test can replace one of them. */
function bind(cache: LinkCache): LinkCache {
  return {
    get: (code) => cache.get(code),
    set: (code, url) => cache.set(code, url),
    fill: (code, url) => cache.fill(code, url),
    markMissing: (code) => cache.markMissing(code),
    markDeleted: (code) => cache.markDeleted(code),
    forget: (code) => cache.forget(code),
    ping: () => cache.ping(),
  };
}

const browser = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

describe("GET /<short_url>/", () => {
  let api: TestShortener;
  beforeAll(async () => {
    api = await startTestShortener();
  });
  afterAll(() => api[Symbol.asyncDispose]());

  test("answers 302 to the long URL, with and without the trailing slash, and counts each", async () => {
    const { short_url } = await api.createLink("https://example.com/target?x=1#frag");
    for (const path of [`/${short_url}/`, `/${short_url}`]) {
      const response = await api.request("GET", path);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("https://example.com/target?x=1#frag");
      expect(response.headers.get("cache-control")).toBe("private, max-age=0");
      expect(response.headers.get("x-request-id")).toBeTruthy();
    }
    expect((await api.db.links.find(short_url))?.accessCount).toBe(2);
  });

  test("counts concurrent redirects of one link exactly", async () => {
    const { short_url } = await api.createLink();
    const responses = await Promise.all(Array.from({ length: 200 }, () => api.request("GET", `/${short_url}/`)));
    expect(responses.every((r) => r.status === 302)).toBe(true);
    expect((await api.db.links.find(short_url))?.accessCount).toBe(200);
  });

  test("HEAD answers like GET but does not count", async () => {
    const { short_url } = await api.createLink("https://example.com/head");
    const response = await api.request("HEAD", `/${short_url}/`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://example.com/head");
    expect((await api.db.links.find(short_url))?.accessCount).toBe(0);
    expect((await api.request("HEAD", "/missing-code/")).status).toBe(404);
  });

  test("answers 404 in the error shape to an API client", async () => {
    const response = await api.request("GET", "/missing-code/");
    expect(response.status).toBe(404);
    expect(await readJson(response)).toEqual({ error: { code: "not_found", message: 'no short URL "missing-code"' } });
  });

  test.each(["/missing-code/", "/x/", "/has.dot", "/%3Cscript%3E"])("answers a browser asking for %p with an HTML 404 page", async (path) => {
    const response = await api.request("GET", path, { headers: browser });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toStartWith("text/html");
    const html = await response.text();
    expect(html).toContain("This short link does not exist");
    expect(html).not.toContain("<script>");
  });

  test("an alias created after a miss redirects at once (the miss is not cached over it)", async () => {
    expect((await api.request("GET", "/late-alias/")).status).toBe(404);
    await api.createLink("https://example.com/late", "late-alias");
    expect((await api.request("GET", "/late-alias/")).status).toBe(302);
  });

  test("a link this process has just redirected skips the shared cache's read", async () => {
    const reads: string[] = [];
    const cache = new MemoryLinkCache();
    await using counted = await startTestShortener({
      cache: {
        ...bind(cache),
        get: (code) => {
          reads.push(code);
          return cache.get(code);
        },
      },
    });
    const { short_url } = await counted.createLink();
    for (let i = 0; i < 3; i++) expect((await counted.request("GET", `/${short_url}`)).status).toBe(302);
    expect(reads).toEqual([short_url]);
    expect((await counted.db.links.find(short_url))?.accessCount).toBe(3);
  });

  test("the shared cache is read beside the count write, not before it: a slow read does not hold the count back, and a failed one no redirect", async () => {
    const cache = new MemoryLinkCache();
    let release = () => {};
    let failNext = false;
    await using counted = await startTestShortener({
      cache: {
        ...bind(cache),
        get: (code) => {
          if (failNext) return Promise.reject(new Error("the cache is down"));
          // Held until the test lets it go: the count write must be made meanwhile.
          return new Promise((resolve) => (release = () => resolve(cache.get(code))));
        },
      },
    });
    const { short_url } = await counted.createLink();
    const redirect = counted.request("GET", `/${short_url}`);
    await waitFor("the visit counted while the cache's read is held", async () => (await counted.db.links.find(short_url))?.accessCount === 1);
    release();
    expect((await redirect).status).toBe(302);
    const other = await counted.createLink();
    failNext = true;
    expect((await counted.request("GET", `/${other.short_url}`)).status).toBe(302);
  });

  test("paths with more segments are not links", async () => {
    expect((await api.request("GET", "/a/b/c")).status).toBe(404);
  });
});

describe("the redirect routes' handlers", () => {
  // Elysia reads each handler's source to decide what to prepare for it; a
  // context handed on whole to a helper made it parse the cookies and the
  // query of every redirect (about 2 µs of CPU each, some 13 % of the app's own).
  test("prepare no cookies for any redirect, and no query for GET and HEAD: each names what it reads", async () => {
    const routes = redirectRoutes({
      respond: async () => ({ status: 302, headers: {}, body: null }),
      status: 302,
      peerOf: () => undefined,
      hostOf: () => undefined,
    });
    const prepared = routes.routes.map((route) => {
      const source = String(route.compile());
      return { route: `${route.method} ${route.path}`, cookies: source.includes("parseCookie"), query: source.includes("parseQuery") };
    });
    expect(prepared).toEqual([
      { route: "GET /:short_url", cookies: false, query: false },
      { route: "HEAD /:short_url", cookies: false, query: false },
      // The unlock form's body is parsed, not the request's query.
      { route: "POST /:short_url", cookies: false, query: true },
    ]);
  });
});

describe("redirect status by configuration", () => {
  test.each([301, 307, 308] as const)("answers %d when configured", async (status) => {
    await using api = await startTestShortener({ redirectStatus: status });
    const { short_url } = await api.createLink("https://example.com/perm");
    const response = await api.request("GET", `/${short_url}`);
    expect(response.status).toBe(status);
    expect(response.headers.get("location")).toBe("https://example.com/perm");
  });
});

describe("two replicas sharing Postgres and Redis", () => {
  const prefix = uniqueRedisPrefix("redirects");
  let redisA: Redis;
  let redisB: Redis;
  let a: TestShortener;
  let b: TestShortener;

  beforeAll(async () => {
    redisA = new Redis(testRedisUrl, { keyPrefix: prefix });
    redisB = new Redis(testRedisUrl, { keyPrefix: prefix });
    a = await startTestShortener({ engine: "postgres", cache: new RedisLinkCache(redisA) });
    b = await startTestShortener({ database: a.db, cache: new RedisLinkCache(redisB) });
  });
  afterAll(async () => {
    await b[Symbol.asyncDispose]();
    await a[Symbol.asyncDispose]();
    redisA.disconnect();
    redisB.disconnect();
    await deleteKeysWithPrefix(testRedisUrl, prefix);
  });

  test("caches the destination in Redis on create", async () => {
    const { short_url } = await a.createLink("https://example.com/cached");
    expect(cachedUrl(await redisA.get(`link:${short_url}`))).toBe("https://example.com/cached");
  });

  test("an update through one replica is what the other redirects to at once", async () => {
    const created = await a.createLink("https://example.com/v1");
    expect((await b.request("GET", `/${created.short_url}`)).headers.get("location")).toBe("https://example.com/v1");
    await a.request("PUT", `/shorten/${created.short_url}/`, {
      json: { long_url: "https://example.com/v2" },
      headers: { authorization: `Bearer ${created.manage_token}` },
    });
    expect((await b.request("GET", `/${created.short_url}`)).headers.get("location")).toBe("https://example.com/v2");
  });

  test("a delete through one replica stops the other's redirects at once", async () => {
    const created = await a.createLink("https://example.com/del");
    expect((await b.request("GET", `/${created.short_url}`)).status).toBe(302);
    await a.request("DELETE", `/shorten/${created.short_url}/`, { headers: { authorization: `Bearer ${created.manage_token}` } });
    expect((await b.request("GET", `/${created.short_url}`)).status).toBe(404);
    expect(await redisA.get(`link:${created.short_url}`)).toBe("-");
  });

  test("a stale cache entry never decides a redirect", async () => {
    const created = await a.createLink("https://example.com/fresh");
    await redisA.set(`link:${created.short_url}`, "https://stale.example/");
    expect((await b.request("GET", `/${created.short_url}`)).headers.get("location")).toBe("https://example.com/fresh");
    // Dropped, not overwritten (a reader's value may be older than a write that landed meanwhile);
    // the next read that misses fills it from the database.
    await waitFor("the stale entry to be dropped", async () => (await redisA.get(`link:${created.short_url}`)) === null);
    expect((await b.request("HEAD", `/${created.short_url}`)).headers.get("location")).toBe("https://example.com/fresh");
    await waitFor("the entry to be filled", async () => cachedUrl(await redisA.get(`link:${created.short_url}`)) === "https://example.com/fresh");
  });

  test("a cached miss answers 404 without a count", async () => {
    await redisA.set("link:ghost-code", "-");
    expect((await b.request("GET", "/ghost-code")).status).toBe(404);
  });

  test("a cached miss that the database contradicts (a lost invalidation) decides nothing, and is dropped", async () => {
    const { short_url } = await a.createLink("https://example.com/there-after-all");
    await redisA.set(`link:${short_url}`, "-");
    const response = await b.request("GET", `/${short_url}/`);
    expect([response.status, response.headers.get("location")]).toEqual([302, "https://example.com/there-after-all"]);
    await waitFor("the stale miss dropped", async () => (await redisA.get(`link:${short_url}`)) !== "-");
    expect((await a.db.links.find(short_url))?.accessCount).toBe(1);
  });
});

/** The long URL of a cache entry (a destination, or a bare URL as entries written before link options were). */
function cachedUrl(entry: string | null): string | undefined {
  return entry === null ? undefined : decodeDestination(entry)?.longUrl;
}
