import { describe, expect, test } from "bun:test";
import { createLogger, maxJsonDepth } from "@linkgeo/shared";
import { freePort, nestedJson, rejectionOf, waitFor } from "@linkgeo/testing";
import ky from "ky";
import type { Address } from "../src/addresses/address.ts";
import { HttpProvider, type HttpProviderOptions } from "../src/providers/http-provider.ts";
import { redactUrl } from "../src/providers/provider-secrets.ts";
import { ProviderError, UnexpectedPayload, type ProviderFailure } from "../src/providers/provider-error.ts";
import { ProviderHealth } from "../src/providers/provider-health.ts";
import type { ReverseQuery } from "../src/providers/reverse-query.ts";
import { MemoryRateLimiter } from "../src/rate-limit/memory-rate-limiter.ts";
import { fixtureText, reply, startFakeProvider, type FakeProvider } from "@linkgeo/testing";

const secret = "sk-test-9f8e7d6c5b4a";
const paris: ReverseQuery = { latitude: 48.8604416, longitude: 2.3503543 };
const start = Date.parse("2026-11-22T08:00:00.000Z");
const mebibyte = 1024 * 1024;

const addressNamed = (formatted: string): Address => ({
  formatted_address: formatted,
  postcode: null,
  country: null,
  country_code: null,
  state: null,
  district: null,
  settlement: null,
  street: null,
  house: null,
});

/** A trivial Nominatim-like mapper: the real ones are tested on their own. */
function mapPayload(body: unknown): Address[] {
  if (typeof body !== "object" || body === null) throw new UnexpectedPayload("the body is not an object");
  if ("error" in body) return []; // Nominatim's "Unable to geocode"
  if ("display_name" in body && typeof body.display_name === "string") return [addressNamed(body.display_name)];
  throw new UnexpectedPayload("neither an address nor an error");
}

/** A provider of the fake, with a clock the test moves and every log line kept. */
function setUp(fake: { url: (path?: string, query?: Record<string, string>) => URL }, options: Partial<HttpProviderOptions> = {}) {
  const time = { now: start };
  const clock = () => new Date(time.now);
  const lines: string[] = [];
  const health = options.health ?? new ProviderHealth({ clock });
  const provider = new HttpProvider({
    name: "TESTGEO",
    publicUrl: "https://geo.example/reverse",
    buildRequest: (query) => ({
      url: fake.url("/reverse", { lat: String(query.latitude), lon: String(query.longitude), format: "jsonv2", apiKey: secret }),
      headers: { "user-agent": "linkgeo-tests" },
    }),
    mapPayload,
    http: ky.create({}),
    rateLimiter: new MemoryRateLimiter(),
    health,
    clock,
    timeoutMs: 2_000,
    retryDelayMs: 10,
    log: createLogger({ service: "geocoder", level: "debug", format: "json", write: (line) => lines.push(line) }),
    ...options,
  });
  return { provider, health, time, lines };
}

/** The rejection as the clients would see it. */
async function failureOf(promise: Promise<unknown>) {
  const error = await rejectionOf(promise);
  if (!(error instanceof ProviderError)) throw error;
  return { provider: error.provider, failure: error.failure, message: error.message, retryAt: error.retryAt };
}

const paths = (fake: FakeProvider) => fake.requests.map((request) => request.url.pathname);

describe("an HTTP provider", () => {
  test("answers with the mapped payload of the request it built", async () => {
    await using fake = startFakeProvider({ replies: [reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json")] });
    const { provider } = setUp(fake);
    expect(await provider.reverse(paris)).toEqual([
      addressNamed(
        "Starbucks, Rue Quincampoix, Beaubourg, Quartier Saint-Merri, Paris 4e Arrondissement, Paris, Île-de-France, France métropolitaine, 75004, France",
      ),
    ]);
    expect(fake.requests.length).toBe(1);
    const [request] = fake.requests;
    expect(Object.fromEntries(request!.url.searchParams)).toEqual({ lat: "48.8604416", lon: "2.3503543", format: "jsonv2", apiKey: secret });
    expect(request!.headers).toMatchObject({ accept: "application/json", "user-agent": "linkgeo-tests" });
  });

  test("maps an answer with nothing there to no addresses", async () => {
    await using fake = startFakeProvider({ replies: [reply.fixture("nominatim-07-null-island-0-0-unable-to-geocode.json")] });
    const { provider } = setUp(fake);
    expect(await provider.reverse({ latitude: 0, longitude: 0 })).toEqual([]);
  });

  test("shows GET /geocoders its public URL, never a key", () => {
    const fake = { url: () => new URL("http://127.0.0.1:1/") };
    expect(setUp(fake).provider.url).toBe("https://geo.example/reverse");
    expect(setUp(fake, { publicUrl: `https://geo.example/reverse?apiKey=${secret}&lang=en` }).provider.url).toBe(
      "https://geo.example/reverse?apiKey=REDACTED&lang=en",
    );
  });

  describe("retries", () => {
    test("a 5xx once, then answers", async () => {
      await using fake = startFakeProvider({ replies: [reply.status(503), reply.fixture("nominatim-07-null-island-0-0-unable-to-geocode.json")] });
      const { provider } = setUp(fake);
      expect(await provider.reverse(paris)).toEqual([]);
      expect(paths(fake)).toEqual(["/reverse", "/reverse"]);
    });

    test("a 5xx twice is upstream_error after exactly two requests", async () => {
      await using fake = startFakeProvider({
        replies: [reply.status(500), reply.status(502)],
        otherwise: reply.fixture("nominatim-07-null-island-0-0-unable-to-geocode.json"),
      });
      const { provider } = setUp(fake);
      expect(await failureOf(provider.reverse(paris))).toEqual({
        provider: "TESTGEO",
        failure: "upstream_error",
        message: "TESTGEO: answered 502",
        retryAt: undefined,
      });
      expect(fake.requests.length).toBe(2);
    });

    test.each([
      [400, "bad_request", "TESTGEO: answered 400"],
      [404, "bad_request", "TESTGEO: answered 404"],
      [422, "bad_request", "TESTGEO: answered 422"],
      [401, "unauthorized", "TESTGEO: answered 401: our key was refused"],
      [403, "unauthorized", "TESTGEO: answered 403: our key was refused"],
    ] as Array<[number, ProviderFailure, string]>)("never a %i (%s)", async (status, failure, message) => {
      await using fake = startFakeProvider({
        replies: [reply.status(status)],
        otherwise: reply.fixture("nominatim-07-null-island-0-0-unable-to-geocode.json"),
      });
      const { provider } = setUp(fake);
      expect(await failureOf(provider.reverse(paris))).toEqual({ provider: "TESTGEO", failure, message, retryAt: undefined });
      expect(fake.requests.length).toBe(1);
    });

    test("a connection closed before any answer once, then it is unreachable", async () => {
      let connections = 0;
      const listener = Bun.listen({
        hostname: "127.0.0.1",
        port: 0,
        socket: {
          open(socket) {
            connections++;
            socket.end();
          },
          data() {},
        },
      });
      try {
        const { provider } = setUp({ url: (path, query) => withQuery(`http://127.0.0.1:${listener.port}${path}`, query) });
        expect(await failureOf(provider.reverse(paris))).toEqual({
          provider: "TESTGEO",
          failure: "unreachable",
          message: expect.stringMatching(/^TESTGEO: could not connect \(E[A-Z]+\)$/),
          retryAt: undefined,
        });
        expect(connections).toBe(2);
      } finally {
        listener.stop(true);
      }
    });
  });

  test("a server that never answers is a timeout within the limit, not retried", async () => {
    await using fake = startFakeProvider({ replies: [reply.never()], otherwise: reply.fixture("nominatim-07-null-island-0-0-unable-to-geocode.json") });
    const { provider } = setUp(fake, { timeoutMs: 200 });
    const started = performance.now();
    expect(await failureOf(provider.reverse(paris))).toEqual({
      provider: "TESTGEO",
      failure: "timeout",
      message: "TESTGEO: no answer within 200 ms",
      retryAt: undefined,
    });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1_000);
    expect(fake.requests.length).toBe(1);
  });

  test("a refused connection is unreachable, at once", async () => {
    const port = await freePort();
    const { provider } = setUp({ url: (path, query) => withQuery(`http://127.0.0.1:${port}${path}`, query) });
    const started = performance.now();
    expect(await failureOf(provider.reverse(paris))).toEqual({
      provider: "TESTGEO",
      failure: "unreachable",
      message: "TESTGEO: could not connect (ECONNREFUSED)",
      retryAt: undefined,
    });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  describe("a 429", () => {
    test("is rate_limited, and keeps it out of rotation without a request until Retry-After", async () => {
      await using fake = startFakeProvider({ replies: [reply.fixture("here-err-429-rate-limit.json", 429, { "retry-after": "120" })] });
      fake.otherwise(reply.fixture("nominatim-07-null-island-0-0-unable-to-geocode.json"));
      const { provider, health, time } = setUp(fake);
      const until = new Date(start + 120_000);
      expect(await failureOf(provider.reverse(paris))).toEqual({
        provider: "TESTGEO",
        failure: "rate_limited",
        message: `TESTGEO: answered 429: wait until ${until.toISOString()}`,
        retryAt: until,
      });
      expect(fake.requests.length).toBe(1);

      time.now = start + 119_999;
      expect(await health.available()).toBe(false);
      expect(await failureOf(provider.reverse(paris))).toEqual({
        provider: "TESTGEO",
        failure: "rate_limited",
        message: `TESTGEO: skipped until ${until.toISOString()}: it asked us to wait`,
        retryAt: until,
      });
      expect(fake.requests.length).toBe(1);

      time.now = start + 120_000;
      expect(await provider.reverse(paris)).toEqual([]);
      expect(fake.requests.length).toBe(2);
    });

    test.each([
      ["an HTTP-date", new Date(start + 90_000).toUTCString(), 90_000],
      ["no Retry-After", undefined, 60_000],
      ["an unreadable Retry-After", "soon", 60_000],
      ["a Retry-After of a day (capped)", "86400", 600_000],
      ["a Retry-After in the past", new Date(start - 5_000).toUTCString(), 0],
    ])("with %s keeps it out for the time it asked, within bounds", async (_, retryAfter, expectedMs) => {
      const headers: Record<string, string> = retryAfter === undefined ? {} : { "retry-after": retryAfter };
      await using fake = startFakeProvider({ replies: [reply.fixture("here-err-429-rate-limit.json", 429, headers)] });
      const { provider } = setUp(fake);
      const error = await failureOf(provider.reverse(paris));
      expect(error.failure).toBe("rate_limited");
      expect(error.retryAt).toEqual(new Date(start + expectedMs));
      expect(fake.requests.length).toBe(1);
    });
  });

  describe("keys", () => {
    test.each(["here-err-401-apikey-expired.json", "geoapify-err-401-invalid-apikey.json"])(
      "a 401 (%s) is unauthorized, and the key appears in no reason and no log line",
      async (fixture) => {
        await using fake = startFakeProvider({ replies: [reply.fixture(fixture, 401)] });
        const { provider, lines } = setUp(fake);
        const error = await rejectionOf(provider.reverse(paris));
        expect(error).toBeInstanceOf(ProviderError);
        expect((error as ProviderError).failure).toBe("unauthorized");
        expect(String(error)).not.toContain(secret);
        expect(JSON.stringify(error)).not.toContain(secret);
        expect(lines.length).toBeGreaterThan(0);
        expect(lines.join("\n")).not.toContain(secret);
        expect(lines.join("\n")).toContain("apiKey=REDACTED");
      },
    );

    test("an upstream message that echoes the key is scrubbed before it is logged", async () => {
      await using fake = startFakeProvider({ replies: [reply.json({ error: `apiKey ${secret} is not valid` }, 403)] });
      const { provider, lines } = setUp(fake);
      expect((await failureOf(provider.reverse(paris))).failure).toBe("unauthorized");
      const warning = lines.map((line) => JSON.parse(line)).find((line) => line.msg === "provider refused our key");
      expect(warning).toMatchObject({ level: "warn", provider: "TESTGEO", status: 403, upstream: '{"error":"apiKey [redacted] is not valid"}' });
      expect(lines.join("\n")).not.toContain(secret);
    });

    test("a key sent in a header, or repeated by the mapper, is scrubbed too", async () => {
      const token = "tok-0a1b2c3d4e5f";
      await using fake = startFakeProvider({ replies: [reply.json({ error: `token ${token} revoked` }, 401), reply.json({ echo: token })] });
      const { provider, lines } = setUp(fake, {
        buildRequest: () => ({ url: fake.url("/reverse"), headers: { authorization: `Bearer ${token}` } }),
        mapPayload: (body) => {
          throw new UnexpectedPayload(`no address in ${JSON.stringify(body)}`);
        },
      });
      expect((await failureOf(provider.reverse(paris))).failure).toBe("unauthorized");
      expect(await failureOf(provider.reverse(paris))).toEqual({
        provider: "TESTGEO",
        failure: "bad_response",
        message: 'TESTGEO: unexpected payload: no address in {"echo":"[redacted]"}',
        retryAt: undefined,
      });
      expect(lines.join("\n")).not.toContain(token);
      expect(lines.join("\n")).toContain("token [redacted] revoked");
    });

    test("no failure kind lets the key through", async () => {
      const port = await freePort();
      await using fake = startFakeProvider({
        replies: [reply.status(500), reply.status(500), reply.never(), reply.html(), reply.status(400), reply.status(429)],
      });
      const fakeAt = (path?: string, query?: Record<string, string>) => fake.url(path, query);
      const { provider, lines } = setUp({ url: fakeAt }, { timeoutMs: 200, health: new ProviderHealth({ failureThreshold: 100 }) });
      const refused = setUp({ url: (path, query) => withQuery(`http://127.0.0.1:${port}${path}`, query) });
      const errors = [
        await rejectionOf(provider.reverse(paris)),
        await rejectionOf(provider.reverse(paris)),
        await rejectionOf(provider.reverse(paris)),
        await rejectionOf(provider.reverse(paris)),
        await rejectionOf(provider.reverse(paris)),
        await rejectionOf(refused.provider.reverse(paris)),
      ];
      expect(errors.map((error) => (error as ProviderError).failure)).toEqual([
        "upstream_error",
        "timeout",
        "bad_response",
        "bad_request",
        "rate_limited",
        "unreachable",
      ]);
      for (const error of errors) expect(`${String(error)} ${JSON.stringify(error)}`).not.toContain(secret);
      expect([...lines, ...refused.lines].join("\n")).not.toContain(secret);
    });

    test("redactUrl hides every credential parameter and nothing else", () => {
      expect(redactUrl(`https://api.example/v1/reverse?lat=1&lon=2&apiKey=${secret}&api_key=a1b2c3&key=zzzz&lang=de`)).toBe(
        "https://api.example/v1/reverse?lat=1&lon=2&apiKey=REDACTED&api_key=REDACTED&key=REDACTED&lang=de",
      );
      expect(redactUrl("https://user:pass@api.example/reverse")).toBe("https://REDACTED:REDACTED@api.example/reverse");
      expect(redactUrl("https://nominatim.openstreetmap.org/reverse")).toBe("https://nominatim.openstreetmap.org/reverse");
    });
  });

  describe("bad bodies", () => {
    test("an HTML page is bad_response", async () => {
      await using fake = startFakeProvider({ replies: [reply.html()] });
      const { provider } = setUp(fake);
      expect(await failureOf(provider.reverse(paris))).toEqual({
        provider: "TESTGEO",
        failure: "bad_response",
        message: "TESTGEO: the body is not JSON",
        retryAt: undefined,
      });
      expect(fake.requests.length).toBe(1);
    });

    test("cut-off JSON is bad_response", async () => {
      await using fake = startFakeProvider({ replies: [reply.cutOffJson(fixtureText("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json"))] });
      const { provider } = setUp(fake);
      expect(await failureOf(provider.reverse(paris))).toEqual({
        provider: "TESTGEO",
        failure: "bad_response",
        message: "TESTGEO: the body is not JSON",
        retryAt: undefined,
      });
    });

    test(`JSON nested deeper than ${maxJsonDepth} levels is bad_response, refused before it is parsed`, async () => {
      await using fake = startFakeProvider({ replies: [{ status: 200, body: `[${nestedJson(100_000)}]`, headers: { "content-type": "application/json" } }] });
      const { provider } = setUp(fake);
      expect(await failureOf(provider.reverse(paris))).toEqual({
        provider: "TESTGEO",
        failure: "bad_response",
        message: `TESTGEO: the body nests deeper than ${maxJsonDepth} levels of arrays and objects`,
        retryAt: undefined,
      });
    });

    test("a connection dropped in the middle of the body is bad_response", async () => {
      const body = fixtureText("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json");
      const listener = Bun.listen({
        hostname: "127.0.0.1",
        port: 0,
        socket: {
          data(socket) {
            socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 100)}`);
            socket.end();
          },
        },
      });
      try {
        const { provider } = setUp({ url: (path, query) => withQuery(`http://127.0.0.1:${listener.port}${path}`, query) });
        expect(await failureOf(provider.reverse(paris))).toEqual({
          provider: "TESTGEO",
          failure: "bad_response",
          message: "TESTGEO: the body was cut off",
          retryAt: undefined,
        });
      } finally {
        listener.stop(true);
      }
    });

    test("a body over 1 MiB is bad_response, and the rest of it is never read", async () => {
      // 64 MiB of valid JSON: read whole, it would be an answer.
      await using fake = startFakeProvider({ replies: [reply.stream({ prefix: '{"display_name":"', chunk: "x".repeat(65_536), repeat: 1024, suffix: '"}' })] });
      const { provider } = setUp(fake);
      expect(await failureOf(provider.reverse(paris))).toEqual({
        provider: "TESTGEO",
        failure: "bad_response",
        message: "TESTGEO: the body is larger than 1 MiB",
        retryAt: undefined,
      });
      const streamed = fake.requests[0]!.streamed!;
      await waitFor("the fake to see the body cancelled", () => streamed.cancelled);
      // What the fake made before the cancel: the 1 MiB read and what the sockets' buffers took.
      expect(streamed).toMatchObject({ cancelled: true, finished: false });
      expect(streamed.sentBytes).toBeLessThan(16 * mebibyte);
      expect(fake.requests.length).toBe(1);
    });

    test("an endless body is bad_response as soon as it passes 1 MiB, not a timeout", async () => {
      await using fake = startFakeProvider({ replies: [reply.stream({ prefix: '{"display_name":"', chunk: "x".repeat(65_536) })] });
      const { provider } = setUp(fake, { timeoutMs: 10_000 });
      expect(await failureOf(provider.reverse(paris))).toMatchObject({ failure: "bad_response", message: "TESTGEO: the body is larger than 1 MiB" });
      const streamed = fake.requests[0]!.streamed!;
      await waitFor("the fake to see the body cancelled", () => streamed.cancelled);
      expect(streamed.sentBytes).toBeLessThan(16 * mebibyte);
    });

    test("a body of exactly 1 MiB is an answer", async () => {
      const prefix = '{"display_name":"';
      const suffix = '"}';
      const name = "x".repeat(mebibyte - prefix.length - suffix.length);
      await using fake = startFakeProvider({ replies: [reply.stream({ prefix, chunk: name, repeat: 1, suffix })] });
      const { provider } = setUp(fake);
      expect(await provider.reverse(paris)).toEqual([addressNamed(name)]);
      expect(fake.requests[0]!.streamed).toEqual({ sentBytes: mebibyte, cancelled: false, finished: true });
    });

    test.each([
      [200, "bad_response", "TESTGEO: the body is larger than 1 MiB"],
      [401, "unauthorized", "TESTGEO: answered 401: our key was refused"],
    ] as Array<[number, ProviderFailure, string]>)(
      "a %i declaring a body over 1 MiB is %s at once, and its connection closed unread",
      async (status, failure, message) => {
        const server = startDeclaringServer(status, 400_000_000);
        try {
          const { provider } = setUp({ url: (path, query) => withQuery(`http://127.0.0.1:${server.port}${path}`, query) }, { timeoutMs: 10_000 });
          // Not a timeout: the declared length alone decides, without waiting for the 400 MB.
          expect(await failureOf(provider.reverse(paris))).toEqual({ provider: "TESTGEO", failure, message, retryAt: undefined });
          await waitFor("the connection to be closed", () => server.closed());
        } finally {
          server.stop();
        }
      },
    );

    test("JSON that is not the documented payload is bad_response", async () => {
      await using fake = startFakeProvider({ replies: [reply.json({ features: "not a list" })] });
      const { provider } = setUp(fake);
      expect(await failureOf(provider.reverse(paris))).toEqual({
        provider: "TESTGEO",
        failure: "bad_response",
        message: "TESTGEO: unexpected payload: neither an address nor an error",
        retryAt: undefined,
      });
    });
  });

  describe("the breaker", () => {
    test("opens after 3 failing calls, refuses without a request, and a successful trial closes it", async () => {
      await using fake = startFakeProvider({ otherwise: reply.status(503) });
      const { provider, health, time } = setUp(fake);
      for (let call = 0; call < 3; call++) expect((await failureOf(provider.reverse(paris))).failure).toBe("upstream_error");
      expect(fake.requests.length).toBe(6);

      const until = new Date(start + 30_000);
      expect(await failureOf(provider.reverse(paris))).toEqual({
        provider: "TESTGEO",
        failure: "cooling_down",
        message: `TESTGEO: skipped until ${until.toISOString()}: it failed repeatedly (last: upstream_error)`,
        retryAt: until,
      });
      expect(fake.requests.length).toBe(6);

      time.now = until.getTime();
      fake.otherwise(reply.fixture("nominatim-07-null-island-0-0-unable-to-geocode.json"));
      expect(await provider.reverse(paris)).toEqual([]);
      expect(await health.available()).toBe(true);
      expect(await provider.reverse(paris)).toEqual([]);
      expect(fake.requests.length).toBe(8);
    });

    test("a failed trial keeps it out for another period", async () => {
      await using fake = startFakeProvider({ otherwise: reply.status(500) });
      const { provider, time } = setUp(fake);
      for (let call = 0; call < 3; call++) await failureOf(provider.reverse(paris));
      time.now = start + 30_000;
      expect((await failureOf(provider.reverse(paris))).failure).toBe("upstream_error");
      expect(fake.requests.length).toBe(8);
      expect(await failureOf(provider.reverse(paris))).toMatchObject({ failure: "cooling_down", retryAt: new Date(start + 60_000) });
      expect(fake.requests.length).toBe(8);
    });

    test("a refused key counts towards it, other 4xx do not", async () => {
      await using fake = startFakeProvider({ otherwise: reply.status(400) });
      const { provider, health } = setUp(fake);
      for (let call = 0; call < 5; call++) expect((await failureOf(provider.reverse(paris))).failure).toBe("bad_request");
      expect(await health.available()).toBe(true);

      fake.otherwise(reply.fixture("geoapify-err-401-invalid-apikey.json", 401));
      for (let call = 0; call < 3; call++) expect((await failureOf(provider.reverse(paris))).failure).toBe("unauthorized");
      expect(await failureOf(provider.reverse(paris))).toMatchObject({ failure: "cooling_down", message: expect.stringContaining("(last: unauthorized)") });
      expect(fake.requests.length).toBe(8);
    });
  });

  describe("the caller's signal", () => {
    test("cancels a request in flight: rejects with its reason, and says nothing about health", async () => {
      await using fake = startFakeProvider({ replies: [reply.never()] });
      const { provider, health } = setUp(fake, { timeoutMs: 5_000, health: new ProviderHealth({ failureThreshold: 1 }) });
      const controller = new AbortController();
      const pending = rejectionOf(provider.reverse(paris, controller.signal));
      await fake.waitForRequests(1);
      const started = performance.now();
      controller.abort();
      const error = await pending;
      expect(error).toBe(controller.signal.reason);
      expect(performance.now() - started).toBeLessThan(500);
      expect(await health.available()).toBe(true);
    });

    test("cancels the wait for a rate-limit slot", async () => {
      await using fake = startFakeProvider({ otherwise: reply.fixture("nominatim-07-null-island-0-0-unable-to-geocode.json") });
      const { provider } = setUp(fake, { minIntervalMs: 60_000, maxRateLimitWaitMs: 120_000 });
      await provider.reverse(paris);
      const pending = rejectionOf(provider.reverse(paris, AbortSignal.timeout(100)));
      expect(((await pending) as DOMException).name).toBe("TimeoutError");
      expect(fake.requests.length).toBe(1);
    });
  });

  describe("our own rate limit", () => {
    test("spaces requests by the interval", async () => {
      await using fake = startFakeProvider({ otherwise: reply.fixture("nominatim-07-null-island-0-0-unable-to-geocode.json") });
      const { provider } = setUp(fake, { minIntervalMs: 250 });
      // The k-th slot is k intervals after the first, which is not before the call, and a request arrives no
      // sooner than its slot: nor does the k-th arrival (a busy fake may read any of them late, so the gaps
      // between arrivals prove nothing). 10 ms for the limiter's Date.now against performance.now.
      const called = performance.now();
      await Promise.all(Array.from({ length: 4 }, () => provider.reverse(paris)));
      const times = fake.requests.map((request) => request.at);
      expect(times.length).toBe(4);
      for (const [k, at] of times.entries()) expect(at - called).toBeGreaterThanOrEqual(k * 250 - 10);
    });

    test("answers rate_limited, without a request, when no slot comes in time", async () => {
      await using fake = startFakeProvider({ otherwise: reply.fixture("nominatim-07-null-island-0-0-unable-to-geocode.json") });
      const { provider, health } = setUp(fake, { minIntervalMs: 1_000, maxRateLimitWaitMs: 100 });
      await provider.reverse(paris);
      const before = Date.now();
      const error = await failureOf(provider.reverse(paris));
      expect(error).toMatchObject({ provider: "TESTGEO", failure: "rate_limited", message: "TESTGEO: our own rate limit for it is used up" });
      expect(error.retryAt!.getTime()).toBeGreaterThan(before + 500);
      expect(fake.requests.length).toBe(1);
      expect(await health.available()).toBe(true);
    });

    test("the retry waits for a slot of its own", async () => {
      await using fake = startFakeProvider({ replies: [reply.status(503), reply.fixture("nominatim-07-null-island-0-0-unable-to-geocode.json")] });
      const { provider } = setUp(fake, { minIntervalMs: 300 });
      // The first slot is taken when the call starts; the fake may read the first request late (a busy
      // process), never the second early. 10 ms for the limiter's Date.now against performance.now.
      const called = performance.now();
      expect(await provider.reverse(paris)).toEqual([]);
      const [, second] = fake.requests.map((request) => request.at);
      expect(second! - called).toBeGreaterThanOrEqual(290);
    });

    test("a retry that gets no slot in time gives up with the first failure", async () => {
      await using fake = startFakeProvider({ replies: [reply.status(503)], otherwise: reply.fixture("nominatim-07-null-island-0-0-unable-to-geocode.json") });
      const { provider } = setUp(fake, { minIntervalMs: 10_000, maxRateLimitWaitMs: 100 });
      expect(await failureOf(provider.reverse(paris))).toEqual({
        provider: "TESTGEO",
        failure: "upstream_error",
        message: "TESTGEO: answered 503",
        retryAt: undefined,
      });
      expect(fake.requests.length).toBe(1);
    });
  });
});

/**
 * A server that answers `status` declaring a body of `declaredBytes`, sends
 * the first bytes of it, then nothing more: only a client that trusts the
 * declared length over the cap gives up at once.
 */
function startDeclaringServer(status: number, declaredBytes: number) {
  let closed = false;
  const listener = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data(socket) {
        socket.write(`HTTP/1.1 ${status} Whatever\r\ncontent-type: application/json\r\ncontent-length: ${declaredBytes}\r\n\r\n{"display_name":"`);
      },
      close() {
        closed = true;
      },
    },
  });
  return { port: listener.port, closed: () => closed, stop: () => listener.stop(true) };
}

function withQuery(base: string, query: Record<string, string> = {}): URL {
  const url = new URL(base);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url;
}
