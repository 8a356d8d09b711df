import { describe, expect, test } from "bun:test";
import { createTestDatabase, readJson, startTcpProxy, waitFor } from "@linkgeo/testing";
import postgres from "postgres";
import { openDatabase, postgresSessionLimits } from "../src/storage/open-database.ts";
import { visitLogLockId } from "../src/storage/postgres/postgres-visit-log.ts";
import { LinkVisits } from "../src/visits/link-visits.ts";
import { redirectsTo, startTestShortener } from "./support/test-shortener.ts";

/** `promise`, or a failure naming `what` when it has not settled within `ms` (the old behaviour: no answer at all). */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: Timer | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

describe("a Postgres whose connections freeze", () => {
  test("answers 503 with Retry-After by the deadline, and never counts a visit whose client got an error", async () => {
    await using testDb = await createTestDatabase("hung");
    const realPort = Number(new URL(testDb.url).port || 5432);
    await using proxy = await startTcpProxy({ port: realPort });
    const throughProxy = new URL(testDb.url);
    throughProxy.port = String(proxy.port);
    const timeoutMs = 300;
    const db = await openDatabase({ engine: "postgres", url: throughProxy.toString() }, { timeoutMs });
    await using api = await startTestShortener({ database: db, databaseTimeoutMs: timeoutMs });
    const link = await api.createLink("https://example.com/counted");
    const redirects = redirectsTo(api, link.short_url);
    const redirect = () => redirects.follow();
    expect((await redirect()).status).toBe(302);

    // Several idle connections, so the frozen batch gets one at once and its update is on the wire.
    await Promise.all(Array.from({ length: 4 }, () => api.request("GET", `/shorten/${link.short_url}/`)));

    proxy.freeze();
    const frozenRedirects = await within(5_000, "redirects while the database is frozen", Promise.all(Array.from({ length: 8 }, () => redirect())));
    const frozenCalls = await within(
      5_000,
      "API calls while the database is frozen",
      Promise.all([
        api.request("GET", `/shorten/${link.short_url}/`),
        api.request("POST", "/shorten/", { json: { long_url: "https://example.com/while-frozen" } }),
        api.request("PUT", `/shorten/${link.short_url}/`, {
          json: { long_url: "https://example.com/new" },
          headers: { authorization: `Bearer ${link.manage_token}` },
        }),
      ]),
    );
    for (const response of [...frozenRedirects, ...frozenCalls]) {
      expect({ status: response.status, retryAfter: response.headers.get("retry-after") }).toEqual({ status: 503, retryAfter: "1" });
      expect((await readJson(response)).error.code).toBe("service_unavailable");
    }

    proxy.thaw();
    await waitFor("redirects to work again", async () => (await redirect()).status === 302);

    // Read past the proxy: the batches that were frozen were rolled back when they woke, never committed.
    const direct = postgres(testDb.url, { max: 1, onnotice: () => {} });
    try {
      await waitFor(
        "the woken batches to end",
        async () =>
          (await direct`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ${testDb.name} AND state = 'idle in transaction'`)[0]!.n === 0,
      );
      const [row] = await direct`SELECT access_count::int AS count, long_url FROM links WHERE code = ${link.short_url}`;
      expect(row).toEqual({ count: redirects.seen, long_url: "https://example.com/counted" });
    } finally {
      await direct.end();
    }
  });

  test("a replica that freezes while it holds the visit log's lock holds it for twice the deadline, not for good", async () => {
    await using testDb = await createTestDatabase("frozen_summer");
    // The read below must reach the server within this of the lock: more than a busy machine stalls.
    const timeoutMs = 1_000;
    const db = await openDatabase({ engine: "postgres", url: testDb.url }, { timeoutMs });
    const frozen = postgres(testDb.url, { max: 1, onnotice: () => {}, connection: postgresSessionLimits(timeoutMs) });
    try {
      const code = "frozen1";
      await db.links.insert({ code, longUrl: "https://example.com/frozen", manageTokenHash: "hash-frozen", createdAt: new Date() });
      const visits = new LinkVisits();
      for (const country of ["DE", "JP"]) visits.add({ bot: false, referrer: "direct", country, browser: "Firefox", os: "Linux", device: "desktop" });
      await db.links.recordVisits(new Map([[code, visits]]), new Date());
      const read = () => db.visits.buckets({ code }, new Date(0), new Date(Date.now() + 3_600_000));

      // The frozen replica: a session with the limits every replica's sessions have, in the middle of a summing
      // step (the log's lock taken), whose process stops before its next statement. The server ends it
      // 2 × timeoutMs after the lock; the read below starts as soon as the lock is held.
      const { promise: locked, resolve: lockTaken } = Promise.withResolvers<void>();
      const ended = frozen
        .begin(async (tx) => {
          await tx`SELECT pg_advisory_xact_lock(${visitLogLockId})`;
          lockTaken();
          await new Promise(() => {});
        })
        .then(
          () => "committed",
          (error: { code?: string }) => error.code ?? String(error),
        );
      await Promise.race([
        locked,
        ended.then((how) => {
          throw new Error(`the frozen step ended before it held the lock: ${how}`);
        }),
      ]);
      // While the lock is held, a read waits for it until its deadline (a 503 for a client).
      await expect(read()).rejects.toThrow();
      // Then the server ends the idle session, the lock with it, and reads sum the log again.
      // Its session ended by the server (postgres.js sees the connection closed after the FATAL 25P03).
      expect(["25P03", "CONNECTION_CLOSED"]).toContain(await within(5_000, "the frozen step to be ended", ended));
      const buckets = await read();
      expect(buckets.reduce((sum, bucket) => sum + bucket.humans + bucket.bots, 0)).toBe(2);
      expect((await db.links.find(code))?.accessCount).toBe(2);
    } finally {
      await frozen.end({ timeout: 1 });
      await db.close();
    }
  });
});
