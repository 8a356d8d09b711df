import { describe, expect, test } from "bun:test";
import { createTestDatabase, startRedisProcess, uniqueRedisPrefix, waitFor } from "@linkgeo/testing";
import Redis from "ioredis";
import { startShortener, type ShortenerProcess } from "../support/shortener-process.ts";
import { publicPartOf, unsetOptions } from "../support/unset-options.ts";
import { decodeDestination } from "../../src/links/destination.ts";

// Redis is only a cache: when it dies under a running shortener, every
// endpoint keeps working on Postgres alone, and no count is lost.

async function call(shortener: ShortenerProcess, method: string, path: string, init: { json?: unknown; token?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.json !== undefined) headers["content-type"] = "application/json";
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  const response = await fetch(`${shortener.url}${path}`, {
    method,
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
    redirect: "manual",
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** `count` redirects of `code`, one after another; returns each "status location". */
async function redirects(shortener: ShortenerProcess, code: string, count: number): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${shortener.url}/${code}/`, { redirect: "manual" });
    await response.arrayBuffer();
    seen.push(`${response.status} ${response.headers.get("location")}`);
  }
  return seen;
}

const record = (shortener: ShortenerProcess, code: string, longUrl: string, accessCount: number) => ({
  short_url: code,
  domain: new URL(shortener.url).hostname,
  long_url: longUrl,
  link: `${shortener.url}/${code}/`,
  access_count: accessCount,
  created_at: expect.any(String),
  updated_at: expect.any(String),
  ...unsetOptions,
});

describe("a shortener whose Redis dies", () => {
  test("keeps redirecting, serving the API and counting exactly on Postgres alone", async () => {
    // Disposed in reverse order: the shortener, then Redis, then the database.
    await using database = await createTestDatabase("redis_outage");
    await using redis = await startRedisProcess();
    const prefix = uniqueRedisPrefix("redis_outage");
    await using shortener = await startShortener({ DATABASE_URL: database.url, REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix }, { name: "redis-outage" });

    expect(await call(shortener, "GET", "/ready")).toEqual({ status: 200, body: { status: "ready", checks: { database: "ok", cache: "ok" } } });

    const created = await call(shortener, "POST", "/shorten/", { json: { long_url: "https://example.com/before" } });
    expect(created).toEqual({
      status: 201,
      body: { ...record(shortener, created.body.short_url, "https://example.com/before", 0), manage_token: expect.any(String) },
    });
    const code: string = created.body.short_url;
    const token: string = created.body.manage_token;

    expect(await redirects(shortener, code, 10)).toEqual(Array(10).fill("302 https://example.com/before"));

    // The link really went through this Redis before it dies.
    const client = new Redis(redis.url, { lazyConnect: true });
    await client.connect();
    expect(decodeDestination((await client.get(`${prefix}link:${code}`)) ?? "")?.longUrl).toBe("https://example.com/before");
    client.disconnect();

    await redis.kill();

    await waitFor("/ready to report the cache as failing", async () => (await call(shortener, "GET", "/ready")).body?.checks?.cache === "failing");
    expect(await call(shortener, "GET", "/ready")).toEqual({
      status: 200,
      body: { status: "degraded", checks: { database: "ok", cache: "failing" } },
    });

    // Redirects and reads go on, from the database.
    expect(await redirects(shortener, code, 10)).toEqual(Array(10).fill("302 https://example.com/before"));
    expect(await call(shortener, "GET", `/shorten/${code}/`)).toEqual({
      status: 200,
      body: publicPartOf(record(shortener, code, "https://example.com/before", 20)),
    });

    // A link made during the outage works at once.
    const during = await call(shortener, "POST", "/shorten/", { json: { long_url: "https://example.com/during" } });
    expect(during).toEqual({
      status: 201,
      body: { ...record(shortener, during.body.short_url, "https://example.com/during", 0), manage_token: expect.any(String) },
    });
    const duringCode: string = during.body.short_url;
    expect(await redirects(shortener, duringCode, 5)).toEqual(Array(5).fill("302 https://example.com/during"));

    // Changing a link: its own token only, and redirects follow the new URL at once.
    expect((await call(shortener, "PUT", `/shorten/${code}/`, { json: { long_url: "https://example.com/x" }, token: during.body.manage_token })).status).toBe(
      403,
    );
    expect(await call(shortener, "PUT", `/shorten/${code}/`, { json: { long_url: "https://example.com/after" }, token })).toEqual({
      status: 200,
      body: record(shortener, code, "https://example.com/after", 20),
    });
    expect(await redirects(shortener, code, 5)).toEqual(Array(5).fill("302 https://example.com/after"));

    // Every 302, before and after the kill, is counted; nothing else is.
    expect(await call(shortener, "GET", `/shorten/${code}/stats/`)).toEqual({
      status: 200,
      body: { short_url: code, access_count: 10 + 10 + 5, last_accessed_at: expect.any(String) },
    });
    expect(await call(shortener, "GET", `/shorten/${duringCode}/stats/`)).toEqual({
      status: 200,
      body: { short_url: duringCode, access_count: 5, last_accessed_at: expect.any(String) },
    });

    // Deleting: gone from the API and from redirects.
    expect(await call(shortener, "DELETE", `/shorten/${duringCode}/`, { token: during.body.manage_token })).toEqual({ status: 204, body: null });
    expect((await call(shortener, "GET", `/shorten/${duringCode}/`)).status).toBe(404);
    expect(await redirects(shortener, duringCode, 1)).toEqual(["404 null"]);

    expect(await call(shortener, "GET", "/ready")).toEqual({
      status: 200,
      body: { status: "degraded", checks: { database: "ok", cache: "failing" } },
    });
  });
});
