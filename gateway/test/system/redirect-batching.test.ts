import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { internalSecretHeader, maxBatchBytes, redirectBatchMediaType, redirectBatchPath } from "@linkgeo/shared";
import {
  createTestDatabase,
  rawPipeline,
  readJson,
  runBounded,
  startService,
  startServicesTogether,
  testInternalSecret,
  testRedisUrl,
  uniqueRedisPrefix,
  waitFor,
  type ServiceProcess,
} from "@linkgeo/testing";

/**
 * The gateway's redirect batches against the real shortener, as processes:
 * what a client sees through a batching gateway is what it sees through one
 * that proxies each redirect (INTERNAL_SECRET unset), and every redirect is
 * counted once.
 */
const stack = new AsyncDisposableStack();
let shortener: ServiceProcess;
let batching: ServiceProcess;
let proxying: ServiceProcess;

beforeAll(async () => {
  const database = await createTestDatabase("batching");
  stack.defer(() => database.drop());
  const accessLogged = { LOG_LEVEL: "info", LOG_FORMAT: "json", ACCESS_LOG: "true" };
  shortener = stack.use(
    await startService(
      "shortener",
      { ...accessLogged, DATABASE_URL: database.url, REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: uniqueRedisPrefix("batching") },
      { echo: false },
    ),
  );
  const gatewayEnv = { SHORTENER_URL: shortener.url, GEOCODER_URL: shortener.url, RATE_LIMIT_CREATE: "off", RATE_LIMIT_API: "off" };
  [batching, proxying] = (await startServicesTogether(stack, [
    { service: "gateway", env: { ...gatewayEnv, ...accessLogged }, options: { name: "gateway-batching", echo: false } },
    { service: "gateway", env: { ...gatewayEnv, INTERNAL_SECRET: "", LOG_LEVEL: "info" }, options: { name: "gateway-proxying", echo: false } },
  ])) as [ServiceProcess, ServiceProcess];
}, 60_000);

afterAll(() => stack.disposeAsync());

async function createLink(longUrl: string): Promise<string> {
  const response = await fetch(`${batching.url}/shorten/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ long_url: longUrl }),
  });
  expect(response.status).toBe(201);
  return (await readJson(response)).short_url;
}

async function accessCount(code: string): Promise<number> {
  return (await readJson(await fetch(`${batching.url}/shorten/${code}/stats/`))).access_count;
}

/** What a client sees, less what differs between any two answers (the date). */
async function seen(response: Response) {
  const headers = Object.fromEntries(response.headers);
  delete headers.date;
  return { status: response.status, headers, body: await response.text() };
}

const browser = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

describe("redirects through a batching gateway", () => {
  test("each answer is the one the proxying gateway gives, header for header, and the batching gateway logged that it batches", async () => {
    const code = await createLink("https://example.com/batched?x=1");
    const requests: Array<[string, Record<string, string>]> = [
      [`/${code}/`, {}],
      [`/${code}`, { "user-agent": "Mozilla/5.0 test", referer: "https://news.example/a" }],
      [`/${code}/?utm_source=x`, {}],
      ["/no-such-link/", {}],
      ["/no-such-link/", browser],
      ["/x", {}],
      [`/${encodeURIComponent(code)}%41/`, {}],
      ["/has.dot", {}],
    ];
    for (const [index, [path, headers]] of requests.entries()) {
      const requestId = `batching-test-${index}`;
      const init = { headers: { ...headers, "x-request-id": requestId }, redirect: "manual" as const };
      const [viaBatch, viaProxy] = await Promise.all([fetch(`${batching.url}${path}`, init), fetch(`${proxying.url}${path}`, init)]);
      expect({ path, ...(await seen(viaBatch)) }).toEqual({ path, ...(await seen(viaProxy)) });
      expect(viaBatch.headers.get("x-request-id")).toBe(requestId);
    }
    // Two gateways, three counted GETs each.
    expect(await accessCount(code)).toBe(6);
    expect(batching.lines().some((line) => line.includes('"redirects":"batched"'))).toBe(true);
    expect(proxying.output()).toContain("INTERNAL_SECRET not set");
  });

  test("a batched redirect carries the client's query and Accept-Language: a link's rules and forward_query see them as through the proxy", async () => {
    const response = await fetch(`${batching.url}/shorten/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        long_url: "https://example.com/landing?ref=own",
        forward_query: true,
        rules: [{ when: { language: "de" }, url: "https://example.com/de?ref=own" }],
      }),
    });
    const code = (await readJson(response)).short_url;
    const cases: Array<[string, Record<string, string>, string]> = [
      [`/${code}/?utm_source=mail&ref=theirs`, {}, "https://example.com/landing?utm_source=mail&ref=theirs"],
      [`/${code}?utm_source=mail`, { "accept-language": "de-AT,de;q=0.9,en;q=0.5" }, "https://example.com/de?ref=own&utm_source=mail"],
      [`/${code}/`, { "accept-language": "en-GB" }, "https://example.com/landing?ref=own"],
    ];
    for (const [path, headers, location] of cases) {
      const init = { headers, redirect: "manual" as const };
      const [viaBatch, viaProxy] = await Promise.all([fetch(`${batching.url}${path}`, init), fetch(`${proxying.url}${path}`, init)]);
      expect({ path, location: viaBatch.headers.get("location") }).toEqual({ path, location });
      expect(viaProxy.headers.get("location")).toBe(location);
    }
  });

  test("concurrent redirects are answered and counted exactly, and the shortener logs each with its client's request id", async () => {
    const codes = await Promise.all([1, 2, 3].map((n) => createLink(`https://example.com/concurrent/${n}`)));
    const answers = await runBounded(300, 48, async (i) => {
      const code = codes[i % codes.length]!;
      const response = await fetch(`${batching.url}/${code}/`, { redirect: "manual" });
      return { code, status: response.status, location: response.headers.get("location"), requestId: response.headers.get("x-request-id")! };
    });
    expect(answers.map((a) => `${a.status} ${a.location}`)).toEqual(answers.map((a) => `302 https://example.com/concurrent/${codes.indexOf(a.code) + 1}`));
    expect(await Promise.all(codes.map(accessCount))).toEqual([100, 100, 100]);
    // Some of them went together: fewer batch requests than redirects.
    const shortenerLines = () =>
      shortener
        .lines()
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line));
    const ids = new Set(answers.map((a) => a.requestId));
    const itemLinesOf = () => shortenerLines().filter((entry) => entry.msg === "request" && ids.has(entry.request_id));
    // Lines reach the test through a pipe: wait until all have been read.
    await waitFor("an access line for every redirect", () => itemLinesOf().length >= answers.length, 10_000);
    const itemLines = itemLinesOf();
    expect(itemLines.map((entry) => `${entry.method} ${entry.status}`)).toEqual(answers.map(() => "GET 302"));
    const batches = shortenerLines().filter((entry) => entry.msg === "request" && entry.path === redirectBatchPath).length;
    console.log(`300 redirects at concurrency 48 went to the shortener in ${batches} batches`);
    expect(batches).toBeLessThan(300);
  });

  test("the batch route cannot be reached through the gateway, secret or not; the shortener refuses it without the secret", async () => {
    const code = await createLink("https://example.com/outsider");
    const body = JSON.stringify({
      items: [{ code, path: `/${code}/`, requestId: "x", forwardedFor: "203.0.113.1", userAgent: null, referer: null, accept: null }],
    });
    for (const path of [redirectBatchPath, "/internal", "/internal/", `${redirectBatchPath}/`, "/INTERNAL/redirects"]) {
      for (const method of ["POST", "GET"]) {
        const response = await fetch(`${batching.url}${path}`, {
          method,
          headers: { "content-type": redirectBatchMediaType, [internalSecretHeader]: testInternalSecret },
          body: method === "POST" ? body : undefined,
        });
        expect({ path, method, status: response.status }).toEqual({ path, method, status: 404 });
      }
    }
    const direct = await fetch(`${shortener.url}${redirectBatchPath}`, { method: "POST", headers: { "content-type": redirectBatchMediaType }, body });
    expect(direct.status).toBe(401);
    expect(await accessCount(code)).toBe(0);
  });

  test("a batch over the shortener's limit is refused with 413 by the shortener itself, and in its access log", async () => {
    const requestId = `oversized-${crypto.randomUUID()}`;
    const item = {
      code: "abc1234",
      path: "/abc1234/",
      requestId: "x",
      forwardedFor: "203.0.113.1",
      userAgent: "a".repeat(maxBatchBytes),
      referer: null,
      accept: null,
    };
    const response = await fetch(`${shortener.url}${redirectBatchPath}`, {
      method: "POST",
      headers: { "content-type": redirectBatchMediaType, [internalSecretHeader]: testInternalSecret, "x-request-id": requestId },
      body: JSON.stringify({ items: [item] }),
    });
    expect(response.status).toBe(413);
    expect((await readJson(response)).error.code).toBe("payload_too_large");
    await waitFor("the refused batch's access line", () => shortener.lines().some((line) => line.includes(requestId)), 10_000);
    const line = JSON.parse(shortener.lines().find((line) => line.includes(requestId))!);
    expect({ msg: line.msg, path: line.path, status: line.status }).toEqual({ msg: "request", path: redirectBatchPath, status: 413 });
  });
});

/**
 * HTTP/1.1 pipelining (RFC 9112 §9.3.2) through each gateway and to the
 * shortener itself. Bun closes a connection on which a request arrives while
 * an async answer is pending, answering none (its fix, oven-sh/bun#38128, is an open pull request), so
 * the services keep the count honest instead: what was not answered is not
 * counted.
 */
describe("pipelined redirects", () => {
  const pipelined = (code: string, times: number) => `GET /${code}/ HTTP/1.1\r\nHost: localhost\r\n\r\n`.repeat(times);
  const targets = () => ({ "the batching gateway": batching, "the proxying gateway": proxying, "the shortener": shortener });

  test.each(["the batching gateway", "the proxying gateway", "the shortener"] as const)(
    "through %s are counted exactly as often as they were answered",
    async (name) => {
      const code = await createLink("https://example.com/pipelined");
      const { responses } = await rawPipeline(targets()[name].port, pipelined(code, 3), 3);
      // One more on a connection of its own: its visit is written with or after the pipelined ones.
      expect((await fetch(`${targets()[name].url}/${code}/`, { redirect: "manual" })).status).toBe(302);
      const answered = responses.filter((response) => response.status === 302).length + 1;
      expect(await accessCount(code)).toBe(answered);
    },
  );

  // Flips to a pass when Bun answers pipelined requests (oven-sh/bun#38128); then drop `.failing`.
  test.failing("through the batching gateway are each answered, in order, on the one connection", async () => {
    const code = await createLink("https://example.com/each-answered");
    const { responses } = await rawPipeline(batching.port, pipelined(code, 3), 3);
    expect(responses.map((response) => [response.status, response.headers.location])).toEqual(
      Array.from({ length: 3 }, () => [302, "https://example.com/each-answered"]),
    );
  });
});
