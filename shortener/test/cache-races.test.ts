import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { deleteKeysWithPrefix, testRedisUrl, uniqueRedisPrefix } from "@linkgeo/testing";
import Redis from "ioredis";
import type { LinkCache } from "../src/cache/link-cache.ts";
import { RedisLinkCache } from "../src/cache/redis-link-cache.ts";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

/**
 * A replica whose Redis writes arrive late (a slow network, a stalled
 * client): reads go through at once, writes wait until released. The Redis
 * underneath is real and shared with the other replica.
 */
class LateWrites implements LinkCache {
  private held: Array<() => Promise<void>> = [];

  constructor(private readonly inner: LinkCache) {}

  get(code: string) {
    return this.inner.get(code);
  }
  set(code: string, longUrl: string) {
    return this.hold(() => this.inner.set(code, longUrl));
  }
  fill(code: string, longUrl: string) {
    return this.hold(() => this.inner.fill(code, longUrl));
  }
  markMissing(code: string) {
    return this.hold(() => this.inner.markMissing(code));
  }
  markDeleted(code: string) {
    return this.hold(() => this.inner.markDeleted(code));
  }
  forget(code: string) {
    return this.hold(() => this.inner.forget(code));
  }
  ping() {
    return this.inner.ping();
  }

  /** How many writes are waiting. */
  get waiting(): number {
    return this.held.length;
  }

  /** Lets every held write through, in order, and waits for them. */
  async release(): Promise<void> {
    const writes = this.held;
    this.held = [];
    for (const write of writes) await write();
  }

  private hold(write: () => Promise<void>): Promise<void> {
    this.held.push(write);
    return Promise.resolve();
  }
}

describe("two replicas on one Redis, one of whose cache writes arrive late", () => {
  const prefix = uniqueRedisPrefix("cache-races");
  const redis = new Redis(testRedisUrl, { keyPrefix: prefix });
  const direct = new Redis(testRedisUrl);
  const late = new LateWrites(new RedisLinkCache(redis));
  let a: TestShortener;
  let b: TestShortener;

  beforeAll(async () => {
    // A writes late; B writes at once; both on one Postgres database and one Redis.
    a = await startTestShortener({ engine: "postgres", cache: late });
    b = await startTestShortener({ database: a.db, cache: new RedisLinkCache(redis) });
  });
  afterAll(async () => {
    await b[Symbol.asyncDispose]();
    await a[Symbol.asyncDispose]();
    redis.disconnect();
    direct.disconnect();
    await deleteKeysWithPrefix(testRedisUrl, prefix);
  });

  /** A link B created, whose cache entry has since expired, so the next read goes to the database. */
  async function linkNotInCache(longUrl: string) {
    const link = await b.createLink(longUrl);
    await direct.del(`${prefix}link:${link.short_url}`);
    return link;
  }

  const head = async (replica: TestShortener, code: string) => {
    const response = await replica.request("HEAD", `/${code}/`);
    return [response.status, response.headers.get("location")];
  };

  // A HEAD that missed writes the database's answer back (late, here); a counted GET writes nothing back.
  test.each([
    ["a HEAD", "HEAD", 1],
    ["a counted GET", "GET", 0],
  ])("%s that read the database before a DELETE cannot bring the link back", async (_, method, writesBack) => {
    const link = await linkNotInCache("https://example.com/deleted-soon");
    expect((await a.request(method, `/${link.short_url}/`)).status).toBe(302);
    expect(late.waiting).toBe(writesBack);

    const deleted = await b.request("DELETE", `/shorten/${link.short_url}/`, { headers: { authorization: `Bearer ${link.manage_token}` } });
    expect(deleted.status).toBe(204);
    await late.release();

    expect(await head(b, link.short_url)).toEqual([404, null]);
    expect(await head(a, link.short_url)).toEqual([404, null]);
  });

  test.each([
    ["a HEAD", "HEAD", 1],
    ["a counted GET", "GET", 0],
  ])("%s that read the database before a PUT cannot put the old URL back", async (_, method, writesBack) => {
    const link = await linkNotInCache("https://example.com/before");
    expect((await a.request(method, `/${link.short_url}/`)).status).toBe(302);
    expect(late.waiting).toBe(writesBack);

    const updated = await b.request("PUT", `/shorten/${link.short_url}/`, {
      json: { long_url: "https://example.com/after" },
      headers: { authorization: `Bearer ${link.manage_token}` },
    });
    expect(updated.status).toBe(200);
    await late.release();

    expect(await head(b, link.short_url)).toEqual([302, "https://example.com/after"]);
    expect(await head(a, link.short_url)).toEqual([302, "https://example.com/after"]);
  });

  test("a stale entry that disagrees with the database is dropped by the next counted GET, not kept", async () => {
    const link = await linkNotInCache("https://example.com/current");
    // What a lost invalidation leaves behind.
    await direct.set(`${prefix}link:${link.short_url}`, "https://example.com/stale", "EX", 3600);
    expect(await head(b, link.short_url)).toEqual([302, "https://example.com/stale"]);

    expect((await b.request("GET", `/${link.short_url}/`)).headers.get("location")).toBe("https://example.com/current");
    expect(await head(b, link.short_url)).toEqual([302, "https://example.com/current"]);
  });
});
