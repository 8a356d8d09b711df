import { describe, expect, test } from "bun:test";
import { maxBatchPoints } from "@linkgeo/shared";
import { readJson, reply, startFakeProvider } from "@linkgeo/testing";
import { inProcessProvider, localVienna } from "./support/in-process-provider.ts";
import { startTestGeocoder, type TestGeocoder } from "./support/test-geocoder.ts";

const post = (geocoder: TestGeocoder, body: unknown) =>
  geocoder.app.handle(
    new Request("http://localhost/reverse-geocode/batch", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );

interface PointResult {
  id: string | number | null;
  data: Array<Record<string, unknown>>;
  error: { code: string; message: string; index: number; providers?: unknown } | null;
  provider: string | null;
  cache: "L1" | "L2" | "MISS" | null;
}

const resultsOf = async (response: Response) => ((await readJson(response)) as { results: PointResult[] }).results;

describe("POST /reverse-geocode/batch", () => {
  test("answers every point in its order: cached, asked and invalid ones mixed; equal points are one question", async () => {
    await using nominatim = startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") });
    const geocoder = startTestGeocoder({ providers: { nominatim: { userAgent: "test/1.0", url: nominatim.url().toString() } } });
    // One point already cached by a single query.
    expect((await geocoder.get("/reverse-geocode?latitude=48.8606&longitude=2.3508")).status).toBe(200);

    const response = await post(geocoder, {
      points: [
        { id: "cached", latitude: 48.8606, longitude: 2.3508 },
        { id: 7, latitude: "48.1", longitude: "2.1" },
        { id: "too far north", latitude: 91, longitude: 0 },
        { latitude: 48.1, longitude: 2.1 },
        { id: "not a number", latitude: "NaN", longitude: 2 },
        { id: "a list", latitude: [1], longitude: 2 },
        { id: "missing", longitude: 2 },
      ],
    });
    expect(response.status).toBe(200);
    const body = (await readJson(response)) as { success: boolean; error: null };
    expect(body).toMatchObject({ success: true, error: null });
    const results = await resultsOf(await post(geocoder, { points: [{ latitude: 48.1, longitude: 2.1 }] }));
    expect(results).toEqual([{ id: null, data: [expect.objectContaining({ country_code: "FR" })], error: null, provider: "NOMINATIM", cache: "L1" }]);

    const first = ((await readJson(await post(geocoder, { points: [{ id: "again", latitude: 48.8606, longitude: 2.3508 }] }))) as { results: PointResult[] })
      .results;
    expect(first[0]).toMatchObject({ id: "again", cache: "L1", provider: "NOMINATIM" });

    const mixed = (body as unknown as { results: PointResult[] }).results;
    expect(mixed.map((result) => [result.id, result.cache, result.error?.code ?? null, result.error?.index ?? null])).toEqual([
      ["cached", "L1", null, null],
      [7, "MISS", null, null],
      ["too far north", null, "invalid_coordinates", 2],
      [null, "MISS", null, null],
      ["not a number", null, "invalid_coordinates", 4],
      ["a list", null, "invalid_coordinates", 5],
      ["missing", null, "invalid_coordinates", 6],
    ]);
    expect(mixed[2]!.error!.message).toBe("latitude must be between -90 and 90");
    expect(mixed[6]!.error!.message).toBe("latitude is required");
    expect(mixed[2]!.data).toEqual([]);
    // 48.1, 2.1 asked twice in the batch, and the cached point: one call each for what was not cached.
    expect(nominatim.requests).toHaveLength(2);
  });

  test("a thousand equal points are one provider call; a thousand and one are refused whole", async () => {
    await using here = startFakeProvider({ otherwise: { ...reply.fixture("here-01-vienna-at-official-docs.json"), delayMs: 20 } });
    const geocoder = startTestGeocoder({ providers: { here: { apiKey: "k", url: here.url().toString() } } });
    const points = Array.from({ length: maxBatchPoints }, (_, i) => ({ id: i, latitude: 48.2181, longitude: 16.3899 }));
    const results = await resultsOf(await post(geocoder, { points }));
    expect(results).toHaveLength(maxBatchPoints);
    expect(results.map((result) => result.id)).toEqual(points.map((point) => point.id));
    expect(new Set(results.map((result) => JSON.stringify(result.data))).size).toBe(1);
    expect(results[0]!.data[0]).toMatchObject({ country_code: "AT", house: "42" });
    expect(here.requests).toHaveLength(1);

    const tooMany = await post(geocoder, { points: [...points, points[0]] });
    expect(tooMany.status).toBe(400);
    expect(((await readJson(tooMany)) as { success: boolean; error: { code: string } }).error.code).toBe("invalid_request");
    expect(here.requests).toHaveLength(1);
  });

  test("a hanging provider costs the batch one chain budget; LOCAL answers every point after it, as a fallback", async () => {
    await using nominatim = startFakeProvider({ otherwise: { never: true } });
    const local = inProcessProvider([localVienna]);
    const geocoder = startTestGeocoder({
      providers: { nominatim: { userAgent: "t", url: nominatim.url().toString() } },
      local,
      chainTimeoutMs: 300,
      providerTimeoutMs: 5_000,
    });
    const points = Array.from({ length: 40 }, (_, i) => ({ latitude: 48 + i / 100, longitude: 16 }));
    const started = performance.now();
    const results = await resultsOf(await post(geocoder, { points }));
    // One budget for the whole batch, not one per point (40 x 300 ms).
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(results.every((result) => result.provider === "LOCAL" && result.error === null)).toBe(true);
    expect(local.asked).toHaveLength(40);
  });

  test("a provider that only asks to wait gives each point its own rate_limited error; the batch is still 200", async () => {
    await using here = startFakeProvider({ otherwise: reply.fixture("here-err-429-rate-limit.json", 429, { "retry-after": "30" }) });
    const geocoder = startTestGeocoder({ providers: { here: { apiKey: "k", url: here.url().toString() } } });
    const response = await post(geocoder, {
      points: [
        { latitude: 1, longitude: 1 },
        { latitude: 2, longitude: 2 },
      ],
    });
    expect(response.status).toBe(200);
    const results = await resultsOf(response);
    expect(results.map((result) => [result.error?.code, result.error?.index])).toEqual([
      ["rate_limited", 0],
      ["rate_limited", 1],
    ]);
    expect(results[0]!.error!.providers).toEqual([{ name: "HERE", reason: "rate_limited" }]);
  });

  test("a body of up to 512 KiB is read (a thousand points with long ids), a bigger one is a 413 unread", async () => {
    const local = inProcessProvider([localVienna]);
    const geocoder = startTestGeocoder({ providers: {}, local });
    const points = Array.from({ length: maxBatchPoints }, (_, i) => ({ id: `${i}`.padEnd(200, "x"), latitude: 48.2, longitude: 16.37 }));
    const big = JSON.stringify({ points });
    expect(big.length).toBeGreaterThan(64 * 1024);
    const answered = await post(geocoder, big);
    expect(answered.status).toBe(200);
    expect((await resultsOf(answered)).every((result) => result.provider === "LOCAL")).toBe(true);
    expect(local.asked).toHaveLength(1);

    const tooBig = await post(geocoder, JSON.stringify({ points, padding: "x".repeat(512 * 1024) }));
    expect(tooBig.status).toBe(413);
    expect(local.asked).toHaveLength(1);
  });

  test("what is wrong with the batch as a whole is a 400 for it: no points, an unknown platform, not JSON, an id too long, a bad language", async () => {
    const geocoder = startTestGeocoder({ providers: {}, local: inProcessProvider([localVienna]) });
    const refusals = [
      { points: [] },
      { points: [{ latitude: 1, longitude: 1 }], platform: "nowhere" },
      "{not json",
      { points: [{ latitude: 1, longitude: 1, id: "x".repeat(201) }] },
      { points: "all of them" },
      { points: [{ latitude: 1, longitude: 1 }], language: "<script>" },
    ];
    for (const body of refusals) {
      const response = await post(geocoder, body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      const error = ((await readJson(response)) as { error: { code: string } }).error;
      expect(["invalid_request", "unknown_platform", "invalid_coordinates"]).toContain(error.code);
    }
  });
});
