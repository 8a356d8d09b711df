import { describe, expect, test } from "bun:test";
import {
  answersBody,
  HttpError,
  internalSecretHeader,
  maxBatchBytes,
  maxBatchItems,
  parseBatchItems,
  redirectBatchMediaType,
  redirectBatchPath,
  silentLogger,
  type RedirectBatchAnswer,
  type RedirectBatchItem,
} from "@linkgeo/shared";
import { freePort, readJson } from "@linkgeo/testing";
import { RedirectBatcher } from "../src/proxy/redirect-batcher.ts";
import { UpstreamPool } from "../src/upstreams/upstream-pool.ts";
import { startFakeUpstream, startRawUpstream, type FakeUpstream } from "./support/fake-upstream.ts";

const secret = "internal-secret-for-tests-0123456789abcdef";

function poolOf(origins: string[]) {
  return new UpstreamPool({ name: "shortener", urls: origins, refreshMs: 60_000, log: silentLogger });
}

function item(code: string, overrides: Partial<RedirectBatchItem> = {}): RedirectBatchItem {
  return { code, path: `/${code}/`, requestId: `req-${code}`, forwardedFor: "203.0.113.9", userAgent: "test/1.0", referer: null, accept: null, ...overrides };
}

/** A shortener replica that takes batches: each item redirects to https://example.com/<code>, or `answer` decides. */
function startBatchReplica(answer: (item: RedirectBatchItem) => RedirectBatchAnswer = redirectTo): FakeUpstream {
  return startFakeUpstream(async (request) => {
    if (request.headers.get(internalSecretHeader) !== secret) return Response.json({ error: { code: "unauthorized", message: "no" } }, { status: 401 });
    const items = parseBatchItems(await request.text());
    return new Response(answersBody(items.map(answer)), { headers: { "content-type": "application/json" } });
  });
}

function redirectTo(sent: RedirectBatchItem): RedirectBatchAnswer {
  return { status: 302, headers: { location: `https://example.com/${sent.code}`, "cache-control": "private, max-age=0" }, body: null };
}

/** The items of every batch a replica received, as code lists. */
function batchesOf(replica: FakeUpstream): string[][] {
  return replica.requests.map((received) => parseBatchItems(received.body).map((sent) => sent.code));
}

function batcherFor(pool: UpstreamPool, options: { timeoutMs?: number; log?: typeof silentLogger } = {}) {
  return new RedirectBatcher({ pool, secret, timeoutMs: options.timeoutMs ?? 5_000, log: options.log ?? silentLogger });
}

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 0;
  } catch (error) {
    return error instanceof HttpError ? error.status : -1;
  }
}

describe("batching redirects to the shortener", () => {
  test("a lone redirect leaves at once as a batch of one; its answer is the replica's, with the client's request id", async () => {
    await using replica = startBatchReplica();
    const response = await batcherFor(poolOf([replica.origin])).redirect(item("Ab3dE9x"));
    expect(response!.status).toBe(302);
    expect(Object.fromEntries(response!.headers)).toEqual({
      location: "https://example.com/Ab3dE9x",
      "cache-control": "private, max-age=0",
      "x-request-id": "req-Ab3dE9x",
    });
    expect(batchesOf(replica)).toEqual([["Ab3dE9x"]]);
    expect(replica.requests[0]).toMatchObject({ method: "POST", path: redirectBatchPath });
    expect(replica.requests[0]!.headers).toMatchObject({ "content-type": redirectBatchMediaType, [internalSecretHeader]: secret });
    expect(parseBatchItems(replica.requests[0]!.body)).toEqual([item("Ab3dE9x")]);
  });

  test("redirects of one turn go together, split at the batch's item limit, round robin over the replicas", async () => {
    await using first = startBatchReplica();
    await using second = startBatchReplica();
    const batcher = batcherFor(poolOf([first.origin, second.origin]));
    const codes = Array.from({ length: 2 * maxBatchItems + 10 }, (_, i) => `code${i}`);
    const responses = await Promise.all(codes.map((code) => batcher.redirect(item(code))));
    expect(responses.map((response) => response!.headers.get("location"))).toEqual(codes.map((code) => `https://example.com/${code}`));
    expect(responses.map((response) => response!.headers.get("x-request-id"))).toEqual(codes.map((code) => `req-${code}`));
    const sizes = [...batchesOf(first), ...batchesOf(second)].map((batch) => batch.length).sort((a, b) => a - b);
    expect(sizes).toEqual([10, maxBatchItems, maxBatchItems]);
    expect(batchesOf(first).length).toBe(2);
    expect(batchesOf(second).length).toBe(1);
  });

  test("splits at the shortener's size limit counted in bytes: headers of non-ASCII characters take two or three each", async () => {
    await using replica = startBatchReplica();
    const batcher = batcherFor(poolOf([replica.origin]));
    // 60 items of about 6,000 characters and 18,000 bytes each: half a MiB counted in characters, a MiB in bytes.
    const codes = Array.from({ length: 60 }, (_, i) => `wide${i}`);
    const responses = await Promise.all(codes.map((code) => batcher.redirect(item(code, { userAgent: "€".repeat(6_000) }))));
    expect(responses.map((response) => response!.status)).toEqual(codes.map(() => 302));
    const bodyBytes = replica.requests.map((received) => Buffer.byteLength(received.body));
    expect(bodyBytes.length).toBe(2);
    expect(bodyBytes.every((bytes) => bytes <= maxBatchBytes)).toBe(true);
    expect(batchesOf(replica).flat().sort()).toEqual([...codes].sort());
  });

  test("each answer becomes its client's response: the status, headers and body the shortener sent, minus hop-by-hop headers and length", async () => {
    await using replica = startBatchReplica(
      (sent): RedirectBatchAnswer =>
        sent.code === "gone"
          ? {
              status: 404,
              headers: { "content-type": "application/json; charset=utf-8", "content-length": "999", connection: "close" },
              body: '{"error":{"code":"not_found","message":"no"}}',
            }
          : {
              status: 503,
              headers: { "retry-after": "1", "content-type": "application/json; charset=utf-8" },
              body: '{"error":{"code":"storage_unavailable","message":"x"}}',
            },
    );
    const batcher = batcherFor(poolOf([replica.origin]));
    const [gone, busy] = await Promise.all([batcher.redirect(item("gone")), batcher.redirect(item("busy"))]);
    expect(gone!.status).toBe(404);
    expect(Object.fromEntries(gone!.headers)).toEqual({ "content-type": "application/json; charset=utf-8", "x-request-id": "req-gone" });
    expect(await readJson(gone!)).toEqual({ error: { code: "not_found", message: "no" } });
    expect(busy!.status).toBe(503);
    expect(busy!.headers.get("retry-after")).toBe("1");
  });

  test("a redirect whose client has gone before its batch leaves is refused with 499 and never sent", async () => {
    await using replica = startBatchReplica();
    const batcher = batcherFor(poolOf([replica.origin]));
    const gone = new AbortController();
    const staying = batcher.redirect(item("stays"));
    const leaving = batcher.redirect(item("leaves"), gone.signal);
    // In the same turn, as Bun closes a connection on which a request was pipelined.
    gone.abort();
    expect(await statusOf(leaving)).toBe(499);
    expect((await staying)!.status).toBe(302);
    expect(await statusOf(batcher.redirect(item("late"), gone.signal))).toBe(499);
    expect(batchesOf(replica)).toEqual([["stays"]]);
  });

  test("a replica that refuses the connection is ejected and the batch goes to another", async () => {
    await using alive = startBatchReplica();
    const dead = `http://127.0.0.1:${await freePort()}`;
    const pool = poolOf([dead, alive.origin]);
    const batcher = batcherFor(pool);
    const responses = await Promise.all(["a1", "a2", "a3"].map((code) => batcher.redirect(item(code))));
    expect(responses.map((response) => response!.status)).toEqual([302, 302, 302]);
    expect(batchesOf(alive)).toEqual([["a1", "a2", "a3"]]);
    // Ejected: the next batches all go to the live one.
    await batcher.redirect(item("b1"));
    await batcher.redirect(item("b2"));
    expect(batchesOf(alive)).toEqual([["a1", "a2", "a3"], ["b1"], ["b2"]]);
  });

  test("a replica that dies with the batch (connection dropped after the request) is ejected, and the batch is sent once more elsewhere", async () => {
    await using dying = startRawUpstream("");
    await using alive = startBatchReplica();
    const batcher = batcherFor(poolOf([dying.origin, alive.origin]));
    const responses = await Promise.all(["d1", "d2"].map((code) => batcher.redirect(item(code))));
    expect(responses.map((response) => response!.status)).toEqual([302, 302]);
    expect(dying.received()).toBe(1);
    expect(batchesOf(alive)).toEqual([["d1", "d2"]]);
  });

  test("when every replica fails, each client gets the proxy's 502; when none answers in time, its 504", async () => {
    await using dying = startRawUpstream("");
    const failed = await Promise.all(["x1", "x2"].map((code) => statusOf(batcherFor(poolOf([dying.origin])).redirect(item(code)))));
    expect(failed).toEqual([502, 502]);

    await using silent = startFakeUpstream(() => new Promise<Response>(() => {}));
    const batcher = batcherFor(poolOf([silent.origin]), { timeoutMs: 200 });
    expect(await Promise.all(["t1", "t2"].map((code) => statusOf(batcher.redirect(item(code)))))).toEqual([504, 504]);
  });

  test("a shortener that does not take batches (no such route, another secret) leaves the redirects to the proxy, and the gateway says why", async () => {
    const warnings: unknown[] = [];
    const log = { ...silentLogger, warn: (message: string, fields?: unknown) => void warnings.push({ message, fields }) };
    for (const status of [404, 401]) {
      await using old = startFakeUpstream(() => Response.json({ error: { code: "x", message: "x" } }, { status }));
      const batcher = batcherFor(poolOf([old.origin]), { log });
      expect(await Promise.all([batcher.redirect(item("f1")), batcher.redirect(item("f2"))])).toEqual([undefined, undefined]);
    }
    expect(warnings).toHaveLength(2);
    expect(JSON.stringify(warnings)).toContain("INTERNAL_SECRET");
    expect(JSON.stringify(warnings)).not.toContain(secret);
  });

  test.each([
    ["not JSON", () => new Response("<html>")],
    ["too few answers", () => new Response(answersBody([]))],
    ["an answer out of shape", () => new Response('{"answers":[{"status":"302","headers":{},"body":null}]}')],
    ["a header no response may carry", () => new Response(answersBody([{ status: 302, headers: { "bad header": "x" }, body: null }]))],
    ["a status outside HTTP's", () => new Response(answersBody([{ status: 99, headers: {}, body: null }]))],
    ["a 500 for the whole batch", () => new Response("oops", { status: 500 })],
  ])("an answer that is not one (%s) is the proxy's 502 for each client, and the gateway lives", async (_, reply) => {
    await using broken = startFakeUpstream(reply);
    const status = await statusOf(batcherFor(poolOf([broken.origin])).redirect(item("q1")));
    expect(status).toBe(502);
  });
});
