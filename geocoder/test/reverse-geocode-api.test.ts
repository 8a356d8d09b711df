import { afterAll, describe, expect, test } from "bun:test";
import { deleteKeysWithPrefix, readJson, startRedisProcess, testRedisUrl, uniqueRedisPrefix, waitFor } from "@linkgeo/testing";
import Redis from "ioredis";
import { reply, startFakeProvider } from "@linkgeo/testing";
import { inProcessProvider, localVienna } from "./support/in-process-provider.ts";
import { startTestGeocoder } from "./support/test-geocoder.ts";

const paris = "/reverse-geocode?latitude=48.8606&longitude=2.3508";
const parisAddress = {
  formatted_address: expect.any(String),
  postcode: "75004",
  country: "France",
  country_code: "FR",
  state: expect.any(String),
  district: expect.anything(),
  settlement: "Paris",
  street: "Rue Quincampoix",
  house: expect.anything(),
};

/**
 * A provider timeout (or chain time) for the cases where a fake that never
 * answers must time out beside one that answers at once, which must beat it
 * even in a test process starved of CPU (four files at a time on two cores
 * stalled one past 300 ms); the cases that wait on it run side by side, so
 * it costs the file about one such wait. The other cases leave the deadlines
 * to startTestGeocoder: none a case outlives.
 */
const answeringFakeDeadlineMs = 1000;

// Side by side: each case makes its own fake providers and geocoder (in-process caches; the one case on
// Redis has the prefix below to itself) and spends most of its time waiting on their deadlines.
describe.concurrent("GET /reverse-geocode", () => {
  const prefix = uniqueRedisPrefix("geocoder-api");
  const redis = new Redis(testRedisUrl, { keyPrefix: prefix });
  afterAll(async () => {
    redis.disconnect();
    await deleteKeysWithPrefix(testRedisUrl, prefix);
  });

  describe("the chain's time budget", () => {
    // Each call may take 400 ms, the chain 700: the first provider that
    // hangs times out on its own, the second is cut off by the chain's
    // deadline, the third is never asked.
    const budget = { providerTimeoutMs: 400, chainTimeoutMs: 700 };

    // Alone, first (test.serial): within its 400 ms each request must reach its fake, which the file's other
    // cases, side by side, could delay past that on a loaded machine.
    test.serial(
      "with network providers hanging, LOCAL still answers within it; the one cut off sees its request abandoned, the next is not asked",
      async () => {
        await using nominatim = startFakeProvider({ otherwise: reply.never() });
        await using geoapify = startFakeProvider({ otherwise: reply.never() });
        await using here = startFakeProvider({ otherwise: reply.never() });
        const local = inProcessProvider([localVienna]);
        const geocoder = startTestGeocoder({
          providers: {
            nominatim: { userAgent: "t", url: nominatim.url().toString() },
            geoapify: { apiKey: "k", url: geoapify.url().toString() },
            here: { apiKey: "k", url: here.url().toString() },
          },
          local,
          ...budget,
        });
        const started = performance.now();
        const response = await geocoder.get("/reverse-geocode?latitude=48.2&longitude=16.4");
        const elapsed = performance.now() - started;
        expect([response.status, response.headers.get("x-geocoder-provider")]).toEqual([200, "LOCAL"]);
        expect(await readJson(response)).toEqual({ success: true, data: [localVienna], error: null });
        expect(local.asked).toEqual([{ latitude: 48.2, longitude: 16.4 }]);
        await waitFor("both requests to be seen abandoned", () => nominatim.requests[0]?.abandoned === true && geoapify.requests[0]?.abandoned === true);
        // Within it: the chain's deadline, not three timeouts (3 × 400 ms), ended the network providers' turn, as
        // HERE was never asked; and LOCAL was asked once it passed, no sooner (the wall time after it is the machine's).
        expect([nominatim.requests.length, geoapify.requests.length, here.requests.length]).toEqual([1, 1, 0]);
        expect(elapsed).toBeGreaterThanOrEqual(budget.chainTimeoutMs);
      },
    );

    test("without an offline provider it is 502 providers_failed, each provider listed with a timeout", async () => {
      await using nominatim = startFakeProvider({ otherwise: reply.never() });
      await using geoapify = startFakeProvider({ otherwise: reply.never() });
      await using here = startFakeProvider({ otherwise: reply.never() });
      const geocoder = startTestGeocoder({
        providers: {
          nominatim: { userAgent: "t", url: nominatim.url().toString() },
          geoapify: { apiKey: "k", url: geoapify.url().toString() },
          here: { apiKey: "k", url: here.url().toString() },
        },
        ...budget,
      });
      const response = await geocoder.get("/reverse-geocode?latitude=48.2&longitude=16.4");
      expect(response.status).toBe(502);
      expect((await readJson(response)).error).toEqual({
        code: "providers_failed",
        message: "every provider failed (NOMINATIM: timeout; GEOAPIFY: timeout; HERE: timeout)",
        providers: [
          { name: "NOMINATIM", reason: "timeout" },
          { name: "GEOAPIFY", reason: "timeout" },
          { name: "HERE", reason: "timeout" },
        ],
      });
      expect(here.requests).toHaveLength(0);
    });

    test("a provider cut off by it is not counted against its breaker", async () => {
      // Three cut-off calls would open the breaker (three failures in a row) if they counted.
      await using nominatim = startFakeProvider({ otherwise: reply.never() });
      const geocoder = startTestGeocoder({
        providers: { nominatim: { userAgent: "t", url: nominatim.url().toString() } },
        local: inProcessProvider([localVienna]),
        providerTimeoutMs: 5_000,
        chainTimeoutMs: 200,
      });
      for (let i = 0; i < 4; i++) {
        const response = await geocoder.get(`/reverse-geocode?latitude=48.${i}&longitude=16.4`);
        expect(response.headers.get("x-geocoder-provider")).toBe("LOCAL");
      }
      expect(nominatim.requests).toHaveLength(4);
    });
  });

  test("answers in the envelope from the provider, then from L1, then from L2, calling the provider once", async () => {
    await using nominatim = startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") });
    const geocoder = startTestGeocoder({ providers: { nominatim: { userAgent: "test/1.0", url: nominatim.url().toString() } }, redis });

    const first = await geocoder.get(paris);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(first.headers.get("x-geocoder-provider")).toBe("NOMINATIM");
    expect(await readJson(first)).toEqual({ success: true, data: [parisAddress], error: null });

    const second = await geocoder.get(paris);
    expect(second.headers.get("x-cache")).toBe("L1");
    expect(await readJson(second)).toEqual({ success: true, data: [parisAddress], error: null });

    await deleteKeysWithPrefix(testRedisUrl, prefix);
    const third = await geocoder.get(paris);
    expect(third.headers.get("x-cache")).toBe("L2");
    expect(third.headers.get("x-geocoder-provider")).toBe("NOMINATIM");
    expect((await geocoder.get(paris)).headers.get("x-cache")).toBe("L1");

    expect(nominatim.requests).toHaveLength(1);
    expect(nominatim.requests[0]!.headers["user-agent"]).toBe("test/1.0");
  });

  test("the same point rounded to 6 decimals is the same question", async () => {
    await using nominatim = startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") });
    const geocoder = startTestGeocoder({ providers: { nominatim: { userAgent: "t", url: nominatim.url().toString() } } });
    await geocoder.get("/reverse-geocode?latitude=48.8606001&longitude=2.3508");
    const again = await geocoder.get("/reverse-geocode?latitude=48.8606004&longitude=2.35080");
    expect(again.headers.get("x-cache")).toBe("L1");
    const otherLanguage = await geocoder.get("/reverse-geocode?latitude=48.8606&longitude=2.3508&language=de");
    expect(otherLanguage.headers.get("x-cache")).toBe("MISS");
    expect(nominatim.requests).toHaveLength(2);
    expect(nominatim.requests[1]!.url.searchParams.get("accept-language")).toBe("de");
  });

  test("100 concurrent identical queries make one provider call", async () => {
    await using here = startFakeProvider({ otherwise: { ...reply.fixture("here-01-vienna-at-official-docs.json"), delayMs: 50 } });
    const geocoder = startTestGeocoder({ providers: { here: { apiKey: "k", url: here.url().toString() } } });
    const responses = await Promise.all(Array.from({ length: 100 }, () => geocoder.get("/reverse-geocode?latitude=48.2181&longitude=16.3899")));
    expect(responses.map((r) => r.status)).toEqual(Array(100).fill(200));
    expect(here.requests).toHaveLength(1);
    const bodies = await Promise.all(responses.map((r) => readJson(r)));
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(bodies[0].data[0]).toMatchObject({ country_code: "AT", house: "42", street: "Heinestraße" });
  });

  test("zero results is 200 with an empty data array, and is cached", async () => {
    await using here = startFakeProvider({ otherwise: reply.fixture("here-03-tasman-sea-no-result.json") });
    const geocoder = startTestGeocoder({ providers: { here: { apiKey: "k", url: here.url().toString() } } });
    const response = await geocoder.get("/reverse-geocode?latitude=-40&longitude=160");
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ success: true, data: [], error: null });
    expect((await geocoder.get("/reverse-geocode?latitude=-40&longitude=160")).headers.get("x-cache")).toBe("L1");
    expect(here.requests).toHaveLength(1);
  });

  test("Nominatim's 'Unable to geocode' is zero results, not a failure", async () => {
    await using nominatim = startFakeProvider({ otherwise: reply.fixture("nominatim-07-null-island-0-0-unable-to-geocode.json") });
    const geocoder = startTestGeocoder({ providers: { nominatim: { userAgent: "t", url: nominatim.url().toString() } } });
    const response = await geocoder.get("/reverse-geocode?latitude=0&longitude=0");
    expect(await readJson(response)).toEqual({ success: true, data: [], error: null });
  });

  test("fails over along the default chain: replicas, then Nominatim, Geoapify, HERE", async () => {
    await using replica = startFakeProvider({ otherwise: reply.status(500) });
    await using nominatim = startFakeProvider({ otherwise: reply.html(503) });
    await using geoapify = startFakeProvider({ otherwise: reply.fixture("geoapify-02-white-house-tn-us-json.json") });
    await using here = startFakeProvider();
    const geocoder = startTestGeocoder({
      providers: {
        replicas: [{ number: 1, url: replica.url().toString() }],
        nominatim: { userAgent: "t", url: nominatim.url().toString() },
        geoapify: { apiKey: "geo-secret", url: geoapify.url().toString() },
        here: { apiKey: "here-secret", url: here.url().toString() },
      },
    });
    const response = await geocoder.get("/reverse-geocode?latitude=36.4682&longitude=-86.6536");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-geocoder-provider")).toBe("GEOAPIFY");
    expect((await readJson(response)).data[0]).toMatchObject({ settlement: "White House", country_code: "US", postcode: "37188" });
    // 5xx is retried once; the HTML page too, as a 503; HERE is never asked.
    expect([replica.requests.length, nominatim.requests.length, geoapify.requests.length, here.requests.length]).toEqual([2, 2, 1, 0]);
  });

  test("balances the default chain across replicas", async () => {
    await using one = startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") });
    await using two = startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") });
    const geocoder = startTestGeocoder({
      providers: {
        replicas: [
          { number: 1, url: one.url().toString() },
          { number: 2, url: two.url().toString() },
        ],
      },
    });
    const providers: string[] = [];
    for (let i = 0; i < 4; i++) providers.push((await geocoder.get(`/reverse-geocode?latitude=10.${i}&longitude=10`)).headers.get("x-geocoder-provider")!);
    expect(providers).toEqual(["NOMINATIM_REPLICA_1", "NOMINATIM_REPLICA_2", "NOMINATIM_REPLICA_1", "NOMINATIM_REPLICA_2"]);
  });

  test("a provider that never answers times out, and the next one answers", async () => {
    await using silent = startFakeProvider({ otherwise: reply.never() });
    await using here = startFakeProvider({ otherwise: reply.fixture("here-01-vienna-at-official-docs.json") });
    const geocoder = startTestGeocoder({
      providers: { nominatim: { userAgent: "t", url: silent.url().toString() }, here: { apiKey: "k", url: here.url().toString() } },
      providerTimeoutMs: answeringFakeDeadlineMs,
    });
    const response = await geocoder.get("/reverse-geocode?latitude=48.2&longitude=16.4");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-geocoder-provider")).toBe("HERE");
  });

  test("every provider failing is 502 providers_failed naming each one's reason, and is not cached", async () => {
    await using nominatim = startFakeProvider({ otherwise: reply.never() });
    await using geoapify = startFakeProvider({ otherwise: reply.fixture("geoapify-err-401-invalid-apikey.json", 401) });
    await using here = startFakeProvider({ otherwise: reply.cutOffJson('{"items":[{"title":"Heinestraße 42"}]}') });
    const geocoder = startTestGeocoder({
      providers: {
        nominatim: { userAgent: "t", url: nominatim.url().toString() },
        geoapify: { apiKey: "geo-secret-key", url: geoapify.url().toString() },
        here: { apiKey: "here-secret-key", url: here.url().toString() },
      },
      providerTimeoutMs: answeringFakeDeadlineMs,
    });
    const response = await geocoder.get("/reverse-geocode?latitude=1&longitude=1");
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      success: false,
      data: [],
      error: {
        code: "providers_failed",
        message: "every provider failed (NOMINATIM: timeout; GEOAPIFY: unauthorized; HERE: bad_response)",
        providers: [
          { name: "NOMINATIM", reason: "timeout" },
          { name: "GEOAPIFY", reason: "unauthorized" },
          { name: "HERE", reason: "bad_response" },
        ],
      },
    });
    expect(text).not.toMatch(/secret|127\.0\.0\.1|apiKey/);
    await geocoder.get("/reverse-geocode?latitude=1&longitude=1");
    expect(geoapify.requests).toHaveLength(2);
  });

  describe("a fallback answer (LOCAL standing in for failed network providers)", () => {
    const minute = 60_000;
    /** A clock the test moves, and a geocoder on it with NOMINATIM and LOCAL. */
    function setUpWithNominatim(nominatimUrl: string, extra: Partial<Parameters<typeof startTestGeocoder>[0]> = {}) {
      const time = { now: Date.parse("2026-11-22T08:00:00.000Z") };
      const local = inProcessProvider([localVienna]);
      const geocoder = startTestGeocoder({
        providers: { nominatim: { userAgent: "t", url: nominatimUrl } },
        local,
        clock: () => new Date(time.now),
        ...extra,
      });
      const ask = async (path: string) => {
        const response = await geocoder.get(path);
        return { cache: response.headers.get("x-cache"), provider: response.headers.get("x-geocoder-provider"), body: await readJson(response) };
      };
      return { time, local, geocoder, ask };
    }

    test("is kept for minutes, after which the real address comes back from the network provider", async () => {
      await using nominatim = startFakeProvider({
        replies: [reply.status(503), reply.status(503)],
        otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json"),
      });
      const { time, ask } = setUpWithNominatim(nominatim.url().toString());
      const start = time.now;

      expect(await ask(paris)).toEqual({ cache: "MISS", provider: "LOCAL", body: { success: true, data: [localVienna], error: null } });
      expect(nominatim.requests).toHaveLength(2);

      // Within its five minutes the fallback is answered from the cache: no provider is asked again.
      time.now = start + 5 * minute - 1;
      expect(await ask(paris)).toMatchObject({ cache: "L1", provider: "LOCAL" });
      expect(nominatim.requests).toHaveLength(2);

      // Then it is gone from both levels, and NOMINATIM, answering again, gives the street.
      time.now = start + 5 * minute;
      expect(await ask(paris)).toEqual({ cache: "MISS", provider: "NOMINATIM", body: { success: true, data: [parisAddress], error: null } });
      expect(nominatim.requests).toHaveLength(3);
      // The real answer is kept as long as any: a day later it is still in L2.
      time.now = start + 5 * minute + 25 * 60 * minute;
      expect(await ask(paris)).toMatchObject({ cache: "L2", provider: "NOMINATIM" });
    });

    test("takes its lifetime from the configuration", async () => {
      await using nominatim = startFakeProvider({
        replies: [reply.status(503), reply.status(503)],
        otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json"),
      });
      const { time, ask } = setUpWithNominatim(nominatim.url().toString(), { fallbackTtlSeconds: 30 });
      const start = time.now;
      expect(await ask(paris)).toMatchObject({ cache: "MISS", provider: "LOCAL" });
      time.now = start + 30_000;
      expect(await ask(paris)).toMatchObject({ cache: "MISS", provider: "NOMINATIM" });
    });

    test("is also what LOCAL answers when the chain's time ran out", async () => {
      await using nominatim = startFakeProvider({ replies: [reply.never()], otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") });
      const { time, ask } = setUpWithNominatim(nominatim.url().toString(), { providerTimeoutMs: 5_000, chainTimeoutMs: answeringFakeDeadlineMs });
      const start = time.now;
      const asked = performance.now();
      expect(await ask(paris)).toMatchObject({ cache: "MISS", provider: "LOCAL" });
      // Cut off by the chain's time, long before NOMINATIM's own 5 s would have ended it.
      expect(performance.now() - asked).toBeLessThan(4_000);
      time.now = start + 5 * minute;
      expect(await ask(paris)).toMatchObject({ cache: "MISS", provider: "NOMINATIM" });
    });

    test("is not what LOCAL answers when asked by name, or as the only provider: those are kept as long as any answer", async () => {
      await using nominatim = startFakeProvider({ otherwise: reply.status(503) });
      const { time, ask } = setUpWithNominatim(nominatim.url().toString());
      const alone = startTestGeocoder({ providers: {}, local: inProcessProvider([localVienna]), clock: () => new Date(time.now) });
      const start = time.now;
      expect(await ask(`${paris}&platform=local`)).toMatchObject({ cache: "MISS", provider: "LOCAL" });
      expect((await alone.get(paris)).headers.get("x-cache")).toBe("MISS");
      time.now = start + 23 * 60 * minute;
      expect(await ask(`${paris}&platform=local`)).toMatchObject({ cache: "L1", provider: "LOCAL" });
      expect((await alone.get(paris)).headers.get("x-cache")).toBe("L1");
      expect(nominatim.requests).toHaveLength(0);
    });

    test("is not what a network provider answers after another one failed", async () => {
      await using nominatim = startFakeProvider({ otherwise: reply.status(503) });
      await using here = startFakeProvider({ otherwise: reply.fixture("here-01-vienna-at-official-docs.json") });
      const { time, ask } = setUpWithNominatim(nominatim.url().toString(), {
        providers: { nominatim: { userAgent: "t", url: nominatim.url().toString() }, here: { apiKey: "k", url: here.url().toString() } },
      });
      const start = time.now;
      expect(await ask(paris)).toMatchObject({ cache: "MISS", provider: "HERE" });
      time.now = start + 23 * 60 * minute;
      expect(await ask(paris)).toMatchObject({ cache: "L1", provider: "HERE" });
    });
  });

  describe("a provider whose body never ends", () => {
    const endless = () => reply.stream({ prefix: '{"place_id":1,"display_name":"', chunk: "x".repeat(65_536) });

    test("is bad_response in the 502 once its body passes 1 MiB, and its connection is closed", async () => {
      await using nominatim = startFakeProvider({ otherwise: endless() });
      const geocoder = startTestGeocoder({ providers: { nominatim: { userAgent: "t", url: nominatim.url().toString() } } });
      const response = await geocoder.get("/reverse-geocode?latitude=3&longitude=3&platform=nominatim");
      expect(response.status).toBe(502);
      expect((await readJson(response)).error).toEqual({
        code: "providers_failed",
        message: "every provider failed (NOMINATIM: bad_response)",
        providers: [{ name: "NOMINATIM", reason: "bad_response" }],
      });
      const streamed = nominatim.requests[0]!.streamed!;
      await waitFor("NOMINATIM to see its body cancelled", () => streamed.cancelled);
      expect(streamed.sentBytes).toBeLessThan(16 * 1024 * 1024);
    });

    test("is passed over for the next provider of the chain", async () => {
      await using nominatim = startFakeProvider({ otherwise: endless() });
      await using here = startFakeProvider({ otherwise: reply.fixture("here-01-vienna-at-official-docs.json") });
      const geocoder = startTestGeocoder({
        providers: { nominatim: { userAgent: "t", url: nominatim.url().toString() }, here: { apiKey: "k", url: here.url().toString() } },
      });
      const response = await geocoder.get("/reverse-geocode?latitude=48.2&longitude=16.4");
      expect([response.status, response.headers.get("x-geocoder-provider")]).toEqual([200, "HERE"]);
      const streamed = nominatim.requests[0]!.streamed!;
      await waitFor("NOMINATIM to see its body cancelled", () => streamed.cancelled);
      expect(streamed.sentBytes).toBeLessThan(16 * 1024 * 1024);
    });
  });

  test("a 429 with Retry-After answers 429 rate_limited and keeps the provider out until then", async () => {
    await using here = startFakeProvider({ replies: [reply.fixture("here-err-429-rate-limit.json", 429, { "retry-after": "30" })] });
    const geocoder = startTestGeocoder({ providers: { here: { apiKey: "k", url: here.url().toString() } } });
    const first = await geocoder.get("/reverse-geocode?latitude=5&longitude=5&platform=here");
    expect(first.status).toBe(429);
    expect(Number(first.headers.get("retry-after"))).toBeGreaterThanOrEqual(29);
    expect((await readJson(first)).error).toMatchObject({ code: "rate_limited", providers: [{ name: "HERE", reason: "rate_limited" }] });
    const second = await geocoder.get("/reverse-geocode?latitude=6&longitude=6&platform=HERE");
    expect(second.status).toBe(429);
    expect(here.requests).toHaveLength(1);
  });

  test("platform is matched without case and answered by that provider alone", async () => {
    await using replica = startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") });
    await using here = startFakeProvider({ otherwise: reply.fixture("here-01-vienna-at-official-docs.json") });
    const geocoder = startTestGeocoder({
      providers: { replicas: [{ number: 1, url: replica.url().toString() }], here: { apiKey: "k", url: here.url().toString() } },
    });
    const response = await geocoder.get(`${paris}&platform=nominatim_replica_1`);
    expect(response.headers.get("x-geocoder-provider")).toBe("NOMINATIM_REPLICA_1");
    expect(here.requests).toHaveLength(0);
  });

  test("an unknown platform is 400 unknown_platform", async () => {
    const geocoder = startTestGeocoder({ providers: {} });
    const response = await geocoder.get(`${paris}&platform=google`);
    expect(response.status).toBe(400);
    expect(await readJson(response)).toEqual({
      success: false,
      data: [],
      error: { code: "unknown_platform", message: 'platform "google" is not a registered geocoder (registered: none are configured)' },
    });
  });

  test("no provider configured (GEOCODER_LOCAL=false, no keys) is 503 no_providers", async () => {
    const response = await startTestGeocoder({ providers: {} }).get(paris);
    expect(response.status).toBe(503);
    expect((await readJson(response)).error.code).toBe("no_providers");
  });

  test.each([
    ["latitude=91&longitude=0", "latitude must be between -90 and 90"],
    ["latitude=0&longitude=-181", "longitude must be between -180 and 180"],
    ["latitude=abc&longitude=0", "latitude must be a decimal number of degrees"],
    ["latitude=&longitude=0", "latitude is required"],
    ["latitude=1e400&longitude=0", "latitude must be a decimal number of degrees"],
    ["longitude=0", "latitude is required"],
    ["latitude=0", "longitude is required"],
  ])("%p is 400 invalid_coordinates", async (query, message) => {
    const response = await startTestGeocoder({ providers: {} }).get(`/reverse-geocode?${query}`);
    expect(response.status).toBe(400);
    expect(await readJson(response)).toEqual({ success: false, data: [], error: { code: "invalid_coordinates", message } });
  });

  test("keeps answering from L2 and the providers when Redis dies", async () => {
    await using server = await startRedisProcess();
    const dying = new Redis(server.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 300 });
    dying.on("error", () => {});
    await new Promise((resolve) => dying.once("ready", resolve));
    await using nominatim = startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") });
    const geocoder = startTestGeocoder({ providers: { nominatim: { userAgent: "t", url: nominatim.url().toString() } }, redis: dying });
    expect((await geocoder.get(paris)).headers.get("x-cache")).toBe("MISS");
    await server.kill();
    const fromL2 = await geocoder.get(paris);
    expect(fromL2.status).toBe(200);
    expect(fromL2.headers.get("x-cache")).toBe("L2");
    const fresh = await geocoder.get("/reverse-geocode?latitude=48.87&longitude=2.35");
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("x-cache")).toBe("MISS");
    expect(nominatim.requests).toHaveLength(2);
    dying.disconnect();
  });
});

describe("GET /geocoders", () => {
  test("lists every registered provider with its endpoint and never a key", async () => {
    const geocoder = startTestGeocoder({
      providers: {
        replicas: [{ number: 1, url: "http://nominatim-1:8080/reverse" }],
        nominatim: { userAgent: "t" },
        geoapify: { apiKey: "geo-secret-key" },
        here: { apiKey: "here-secret-key" },
      },
    });
    const response = await geocoder.get("/geocoders");
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      geocoders: [
        { name: "NOMINATIM_REPLICA_1", url: "http://nominatim-1:8080/reverse" },
        { name: "NOMINATIM", url: "https://nominatim.openstreetmap.org/reverse" },
        { name: "GEOAPIFY", url: "https://api.geoapify.com/v1/geocode/reverse" },
        { name: "HERE", url: "https://revgeocode.search.hereapi.com/v1/revgeocode" },
      ],
    });
    expect(text).not.toContain("secret");
  });
});

describe("geocoder operations", () => {
  test("/docs/json describes the routes and /health, /ready answer", async () => {
    const geocoder = startTestGeocoder({ providers: {} });
    const spec = await readJson(await geocoder.get("/docs/json"));
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(["/reverse-geocode", "/geocoders", "/health", "/ready"]));
    expect(spec.openapi).toBe("3.1.0");
    expect(Object.keys(spec.paths["/reverse-geocode"].get.responses)).toEqual(expect.arrayContaining(["200", "400", "429", "502", "503"]));
    // Swagger UI shows a parameter's own description, not its schema's.
    expect(spec.paths["/reverse-geocode"].get.parameters.find((parameter: { name: string }) => parameter.name === "latitude")).toEqual({
      name: "latitude",
      in: "query",
      required: false,
      description: "Decimal degrees, -90 to 90",
      schema: { type: "string", description: "Decimal degrees, -90 to 90", examples: ["48.8584"] },
    });
    expect(await readJson(await geocoder.get("/health"))).toEqual({ status: "ok" });
    expect(await readJson(await geocoder.get("/ready"))).toEqual({ status: "ready", checks: { l2: "ok" } });
  });
});
