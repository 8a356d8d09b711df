import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { errorBody } from "@linkgeo/shared";
import { MemoryTokenBuckets } from "@linkgeo/shared/rate-limit";
import { readJson } from "@linkgeo/testing";
import { buildWebAssets, type WebAssets } from "@linkgeo/webapp";
import { readGatewayConfig } from "../src/config.ts";
import { addressDigest } from "../src/rate-limit/address-digest.ts";
import { KnownCodes } from "../src/rate-limit/known-codes.ts";
import { startFakeUpstream, type FakeUpstream } from "./support/fake-upstream.ts";
import { unlockGateway } from "./support/unlock-gateway.ts";

/**
 * A shortener that knows the codes starting `known`: a 302 for them (their record for `GET /shorten/<code>/`), the
 * API's 404 for any other; on the host `brand.test`, whose domain has a not_found_url, its marked redirect there.
 */
let shortener: FakeUpstream;
let web: WebAssets;
beforeAll(async () => {
  shortener = startFakeUpstream((request) => {
    const [first = "", second = ""] = new URL(request.url).pathname.split("/").slice(1);
    const code = first === "shorten" ? second : first;
    if (code.startsWith("known")) {
      return first === "shorten"
        ? Response.json({ short_url: code })
        : new Response(null, { status: 302, headers: { location: `https://example.com/${code}` } });
    }
    if (first !== "shorten" && request.headers.get("x-forwarded-host") === "brand.test") {
      return new Response(null, { status: 302, headers: { location: "https://brand.test/not-found", "link-page": "not-found" } });
    }
    return Response.json(errorBody("not_found", "no such short link"), { status: 404 });
  });
  web = await buildWebAssets();
});
afterAll(() => shortener.stop());

const follow = (app: { handle: (request: Request) => Promise<Response> }, code: string, client: string, host = "gateway") =>
  app.handle(new Request(`http://${host}/${code}/`, { headers: { "x-forwarded-for": client, accept: "application/json" } }));
const askedBy = (client: string) => shortener.requests.filter((request) => request.headers["x-forwarded-for"] === client).length;

/**
 * The gateway with its default limits but these (redirects themselves unlimited, as by default), its buckets on a
 * clock the test moves. No slowing unless `slowdownMs` is given: the tests of refusals do not wait for it.
 */
async function gateway(misses: string, slowdownMs = 0) {
  let nowMs = 0;
  const buckets = new MemoryTokenBuckets({ now: () => nowMs });
  const rateLimits = readGatewayConfig({ RATE_LIMIT_MISSES: misses, RATE_LIMIT_MISSES_SLOWDOWN_MS: String(slowdownMs) }).rateLimits;
  const app = await unlockGateway({ shortener: shortener.origin, buckets, web, rateLimits });
  return { app, advanceSeconds: (seconds: number) => (nowMs += seconds * 1000) };
}

describe("a client that asks for codes no link has (RATE_LIMIT_MISSES)", () => {
  test("a prober of 1,000 unknown codes gets 429 past its 100 misses, never asking the shortener; its known link and another client's redirects flow", async () => {
    const { app } = await gateway("600/hour,burst=100");
    const prober = "203.0.113.50";
    expect((await follow(app, "known-one", prober)).status).toBe(302);

    const statuses: number[] = [];
    for (let i = 0; i < 1_000; i++) statuses.push((await follow(app, `guess${i}`, prober)).status);
    expect(statuses.slice(0, 100)).toEqual(Array(100).fill(404));
    expect(statuses.slice(100)).toEqual(Array(900).fill(429));
    // The known link, and 100 guesses: the 900 refused never reached the shortener.
    expect(askedBy(prober)).toBe(101);

    const refused = await follow(app, "guess-more", prober);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("6");
    expect(await readJson(refused)).toEqual({ error: { code: "rate_limited", message: "too many requests, retry in 6 seconds" } });
    // A link it followed before still sends it on; one it never followed is a guess like the others.
    expect((await follow(app, "known-one", prober)).status).toBe(302);
    expect((await follow(app, "known-two", prober)).status).toBe(429);
    // Another client is untouched, its misses its own.
    expect((await follow(app, "known-two", "203.0.113.51")).status).toBe(302);
    expect((await follow(app, "nothing", "203.0.113.51")).status).toBe(404);
  });

  test("a link is its code on the host asked: the one it followed on one domain is not known on another", async () => {
    const { app } = await gateway("600/hour,burst=2");
    const client = "203.0.113.55";
    expect((await follow(app, "known-here", client)).status).toBe(302);
    expect([(await follow(app, "guess1", client)).status, (await follow(app, "guess2", client)).status]).toEqual([404, 404]);
    expect((await follow(app, "known-here", client, "go.brand.test")).status).toBe(429);
    expect((await follow(app, "known-here", client)).status).toBe(302);
  });

  test("the misses refill: a refused client may guess again once a token is back", async () => {
    const { app, advanceSeconds } = await gateway("60/min,burst=3");
    const client = "203.0.113.60";
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await follow(app, `miss${i}`, client)).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
    advanceSeconds(1);
    expect((await follow(app, "known-after", client)).status).toBe(302);
    expect((await follow(app, "miss-after", client)).status).toBe(404);
  });

  test("slowed before refused: past half its misses a guess waits, longer the fewer are left; its known link still goes on", async () => {
    const { app } = await gateway("60/hour,burst=10", 200);
    const client = "203.0.113.80";
    expect((await follow(app, "known-slow", client)).status).toBe(302);
    const waited: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      expect((await follow(app, `slow${i}`, client)).status).toBe(404);
      waited.push(performance.now() - started);
    }
    // Misses 1 to 6 find 10 to 5 tokens left: no wait. Then 4, 3, 2, 1 left: 40, 80, 120 and 160 ms at least.
    for (const [index, least] of [40, 80, 120, 160].entries()) expect(waited[6 + index]!).toBeGreaterThanOrEqual(least - 1);
    expect((await follow(app, "slow-more", client)).status).toBe(429);
    expect((await follow(app, "known-slow", client)).status).toBe(302);
  });

  test("a domain's redirect to its not_found_url is a miss like a 404, and its mark never reaches the client", async () => {
    const { app } = await gateway("600/hour,burst=3");
    const client = "203.0.113.90";
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await follow(app, `brand-guess${i}`, client, "brand.test"));
    expect(answers.map((answer) => [answer.status, answer.headers.get("location"), answer.headers.get("link-page")])).toEqual([
      [302, "https://brand.test/not-found", null],
      [302, "https://brand.test/not-found", null],
      [302, "https://brand.test/not-found", null],
      [429, null, null],
    ]);
    expect((await follow(app, "known-brand", client, "brand.test")).status).toBe(429);
  });

  test("reading links by code is guessing too: its 404s spend the same misses, and once they are spent it is refused", async () => {
    const { app } = await gateway("600/hour,burst=3");
    const client = "203.0.113.95";
    const read = (code: string, path = "") =>
      app.handle(new Request(`http://gateway/shorten/${code}/${path}`, { headers: { "x-forwarded-for": client, accept: "application/json" } }));
    expect((await read("known-read")).status).toBe(200);
    expect([(await read("guess-a")).status, (await read("guess-b", "stats/")).status, (await follow(app, "guess-c", client)).status]).toEqual([404, 404, 404]);
    const refused = await read("guess-d");
    expect([refused.status, (await readJson(refused)).error.code]).toEqual([429, "rate_limited"]);
    expect((await follow(app, "guess-e", client)).status).toBe(429);
    // The record it read before is a link it knows; another client reads as ever.
    expect((await read("known-read")).status).toBe(200);
    expect((await app.handle(new Request("http://gateway/shorten/guess-a/", { headers: { "x-forwarded-for": "203.0.113.96" } }))).status).toBe(404);
  });

  test("off: misses cost nothing", async () => {
    const { app } = await gateway("off");
    const statuses = new Set<number>();
    for (let i = 0; i < 150; i++) statuses.add((await follow(app, `free${i}`, "203.0.113.70")).status);
    expect([...statuses]).toEqual([404]);
  });
});

describe("the links a client followed, as a process remembers them", () => {
  test("the latest 32 of each client, of the latest 10,000 clients", () => {
    const known = new KnownCodes();
    for (let i = 0; i < 40; i++) known.remember("a", `host/code${i}`);
    expect([known.has("a", "host/code39"), known.has("a", "host/code8"), known.has("a", "host/code7")]).toEqual([true, true, false]);
    // Remembering a client again makes it the latest: the oldest other client goes first.
    for (let i = 0; i < 10_000; i++) {
      known.remember(`client${i}`, "host/x");
      if (i === 5_000) known.remember("a", "host/code39");
    }
    expect([known.has("a", "host/code39"), known.has("client0", "host/x"), known.has("client9999", "host/x")]).toEqual([true, false, true]);
  });
});

describe("a client's digest, as the budgets key it", () => {
  test("is the same each time it is asked, before and after the process forgot it; another address or secret, another digest", () => {
    const digest = addressDigest("s".repeat(32), 2);
    const first = digest("203.0.113.1");
    expect(digest("203.0.113.1")).toBe(first);
    for (const other of ["203.0.113.2", "203.0.113.3", "203.0.113.4"]) digest(other);
    expect(digest("203.0.113.1")).toBe(first);
    expect(digest("203.0.113.2")).not.toBe(first);
    expect(addressDigest("t".repeat(32))("203.0.113.1")).not.toBe(first);
    expect(first).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});
