import { describe, expect, test } from "bun:test";
import { readJson, reply, startFakeProvider } from "@linkgeo/testing";
import { silentLogger } from "@linkgeo/shared";
import { ProviderChain } from "../src/geocoding/provider-chain.ts";
import { sharedLocalProvider } from "./support/shared-local-provider.ts";
import { startTestGeocoder } from "./support/test-geocoder.ts";

/** LOCAL, loaded once for the test process (2 s or more of a core): shared-local-provider.ts. */
const { provider: local } = sharedLocalProvider();

type Body = { success: boolean; data: Array<Record<string, unknown>>; error: { code: string; message: string } | null };

describe.concurrent("GET /geocode", () => {
  test("LOCAL alone: the place the query names, with its point, confidence and GeoNames id; the same query again from the cache", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local });
    const first = await geocoder.get("/geocode?q=Paris%20Texas&limit=2");
    expect(first.status).toBe(200);
    expect([first.headers.get("x-cache"), first.headers.get("x-geocoder-provider")]).toEqual(["MISS", "LOCAL"]);
    const body = (await readJson(first)) as Body;
    expect(body.data).toHaveLength(2);
    expect(body.data[0]).toMatchObject({
      settlement: "Paris",
      state: "Texas",
      country_code: "US",
      confidence: 1,
      provider_id: expect.stringMatching(/^geonames:\d+$/),
    });
    expect(body.data[0]!.latitude as number).toBeCloseTo(33.66, 1);
    // The same query in another case and spacing is the same entry; with a comma it is another question.
    const again = await geocoder.get("/geocode?q=PARIS++texas%20&limit=2");
    expect(again.headers.get("x-cache")).toBe("L1");
    expect(((await readJson(again)) as Body).data).toEqual(body.data);
    expect((await geocoder.get("/geocode?q=Paris,%20Texas&limit=2")).headers.get("x-cache")).toBe("MISS");
    // A bias is rounded to 3 decimals before it is asked or kept: two points 10 m apart are one question.
    await geocoder.get("/geocode?q=Paris&near=33.66011,-95.55511");
    expect((await geocoder.get("/geocode?q=Paris&near=33.66004,-95.55498")).headers.get("x-cache")).toBe("L1");
  });

  test("a bias, a box and a country filter reach LOCAL; GeoJSON puts each place at its own point", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local });
    const near = (await readJson(await geocoder.get("/geocode?q=Springfield&near=39.8,-89.6&limit=1"))) as Body;
    expect(near.data[0]).toMatchObject({ settlement: "Springfield", state: "Illinois" });
    const boxed = (await readJson(await geocoder.get("/geocode?q=Springfield&bbox=-95,36,-92,38&limit=1"))) as Body;
    expect(boxed.data[0]).toMatchObject({ state: "Missouri" });
    const canadian = (await readJson(await geocoder.get("/geocode?q=London&country=ca&limit=3"))) as Body;
    expect(canadian.data[0]).toMatchObject({ settlement: "London", state: "Ontario" });
    expect(canadian.data.every((place) => place.country_code === "CA")).toBe(true);
    const geojson = await geocoder.get("/geocode?q=Zurich&limit=1&format=geojson");
    expect(geojson.headers.get("content-type")).toStartWith("application/geo+json");
    const collection = (await readJson(geojson)) as { features: Array<{ geometry: { coordinates: number[] }; properties: Record<string, unknown> }> };
    expect(collection.features[0]!.properties).toMatchObject({ settlement: "Zürich", provider: "LOCAL", cache: "MISS" });
    const [longitude, latitude] = collection.features[0]!.geometry.coordinates;
    expect([Math.round(latitude!), Math.round(longitude!)]).toEqual([47, 9]);
  });

  test("the chain: the first provider that answers wins, asked at its /search with the query's words", async () => {
    await using nominatim = startFakeProvider({ otherwise: reply.fixture("nominatim-fwd-01-paris-fr-us-jsonv2.json") });
    await using geocoder = startTestGeocoder({
      providers: { nominatim: { userAgent: "linkgeo-test", url: nominatim.url().toString() } },
      local,
    });
    const answer = await geocoder.get("/geocode?q=Paris&country=fr,us&language=fr");
    expect(answer.headers.get("x-geocoder-provider")).toBe("NOMINATIM");
    const body = (await readJson(answer)) as Body;
    expect(body.data.map((place) => [place.settlement, place.country_code, place.provider_id])).toEqual([
      ["Paris", "FR", "relation/7444"],
      ["Paris", "US", "relation/115357"],
    ]);
    const asked = nominatim.requests[0]!.url;
    expect(asked.pathname).toBe("/search");
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({ q: "Paris", countrycodes: "fr,us", "accept-language": "fr", limit: "5" });
  });

  test("a provider that fails hands the query to the next; with every network provider down, LOCAL answers", async () => {
    await using nominatim = startFakeProvider({ otherwise: reply.status(503) });
    await using geoapify = startFakeProvider({ otherwise: reply.fixture("geoapify-fwd-01-springfield-il-us-json.json") });
    await using here = startFakeProvider({ otherwise: reply.status(500) });
    await using geocoder = startTestGeocoder({
      providers: {
        nominatim: { userAgent: "t", url: nominatim.url().toString() },
        geoapify: { apiKey: "k", url: geoapify.url().toString() },
        here: { apiKey: "k", url: here.url().toString() },
      },
      order: ["NOMINATIM", "GEOAPIFY", "HERE", "LOCAL"],
      local,
    });
    const answered = await geocoder.get("/geocode?q=Springfield%2C%20IL");
    expect(answered.headers.get("x-geocoder-provider")).toBe("GEOAPIFY");
    expect(((await readJson(answered)) as Body).data[0]).toMatchObject({ state: "Illinois", confidence: 1 });
    expect(geoapify.requests[0]!.url.pathname).toBe("/search");

    const onlyHere = await geocoder.get("/geocode?q=Berlin&platform=here");
    expect(onlyHere.status).toBe(502);
    expect(((await readJson(onlyHere)) as Body).error!.code).toBe("providers_failed");
    await using downed = startTestGeocoder({
      providers: { nominatim: { userAgent: "t", url: nominatim.url().toString() } },
      local,
    });
    const fallback = await downed.get("/geocode?q=Berlin");
    expect([fallback.status, fallback.headers.get("x-geocoder-provider")]).toEqual([200, "LOCAL"]);
  });

  test.each([
    ["", "invalid_request", "q is required: the name or address to look for"],
    ["q=%20%20", "invalid_request", "q is required: the name or address to look for"],
    [`q=${"x".repeat(201)}`, "invalid_request", "q must be at most 200 characters"],
    ["q=Paris&limit=0", "invalid_request", "limit must be a whole number from 1 to 20"],
    ["q=Paris&limit=21", "invalid_request", "limit must be a whole number from 1 to 20"],
    ["q=Paris&limit=1e1", "invalid_request", "limit must be a whole number from 1 to 20"],
    ["q=Paris&country=usa", "invalid_request", "country must be one to 20 ISO 3166-1 alpha-2 codes, comma-separated, such as fr or us,ca"],
    ["q=Paris&country=uk", "invalid_request", "country must be one to 20 ISO 3166-1 alpha-2 codes, comma-separated, such as fr or us,ca"],
    ["q=Paris&near=91,0", "invalid_coordinates", "near: latitude must be between -90 and 90"],
    ["q=Paris&near=48.8", "invalid_coordinates", "near must be latitude,longitude"],
    ["q=Paris%00", "invalid_request", "q must not hold control characters"],
    ["q=Paris&bbox=10,50,20", "invalid_request", "bbox must be west,south,east,north in degrees, south not above north"],
    ["q=Paris&bbox=10,50,20,40", "invalid_request", "bbox must be west,south,east,north in degrees, south not above north"],
    ["q=Paris&language=x_y", "invalid_request", "language must be a language tag such as en, de or pt-BR"],
    ["q=Paris&platform=nowhere", "unknown_platform", expect.stringContaining("nowhere")],
    ["q=Paris&format=kml", "invalid_request", "format must be json or geojson"],
  ])("?%s is a 400 %s", async (query, code, message) => {
    await using geocoder = startTestGeocoder({ providers: {}, local });
    const response = await geocoder.get(`/geocode?${query}`);
    expect(response.status).toBe(400);
    expect(await readJson(response)).toEqual({ success: false, data: [], error: { code, message } });
  });

  test("no provider with a forward search configured is a 503", async () => {
    await using geocoder = startTestGeocoder({ providers: {} });
    const response = await geocoder.get("/geocode?q=Paris");
    expect(response.status).toBe(503);
    expect(((await readJson(response)) as Body).error!.code).toBe("no_providers");
  });
});

describe.concurrent("POST /geocode/batch", () => {
  const post = (geocoder: { app: { handle(request: Request): Promise<Response> } }, body: unknown, format = "") =>
    geocoder.app.handle(
      new Request(`http://localhost/geocode/batch${format}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    );
  type BatchBody = {
    results: Array<{
      id: unknown;
      data: Array<Record<string, unknown>>;
      error: { code: string; message: string; index: number } | null;
      provider: string | null;
      cache: string | null;
    }>;
  };

  test("each query answered in its order with its id, a bad one in its place, equal ones asked once", async () => {
    await using nominatim = startFakeProvider({ otherwise: reply.fixture("nominatim-fwd-01-paris-fr-us-jsonv2.json") });
    await using geocoder = startTestGeocoder({ providers: { nominatim: { userAgent: "t", url: nominatim.url().toString() } }, local });
    const response = await post(geocoder, {
      queries: [
        { id: "a", q: "Paris", limit: 1 },
        { id: "b", q: "" },
        { id: 3, q: "paris", limit: "1" },
        { q: "Paris", near: "91,0" },
        { id: "e", q: "Paris", country: ["fr", "us"] },
      ],
      language: "fr",
    });
    expect(response.status).toBe(200);
    const { results } = (await readJson(response)) as BatchBody;
    expect(results.map((result) => [result.id, result.error?.code ?? null, result.data.length])).toEqual([
      ["a", null, 1],
      ["b", "invalid_request", 0],
      [3, null, 1],
      [null, "invalid_coordinates", 0],
      ["e", null, 2],
    ]);
    expect(results[1]!.error).toEqual({ code: "invalid_request", message: "q is required: the name or address to look for", index: 1 });
    expect(results[0]!.data[0]).toMatchObject({ settlement: "Paris", country_code: "FR", provider_id: "relation/7444" });
    // "Paris" and "paris" with one limit are one question: Nominatim was asked twice, for the two distinct ones.
    expect(nominatim.requests).toHaveLength(2);
    expect(results[2]!.cache).toBe("MISS");
    const again = (await readJson(await post(geocoder, { queries: [{ q: "PARIS", limit: 1 }], language: "fr" }))) as BatchBody;
    expect(again.results[0]!.cache).toBe("L1");
  });

  test("GeoJSON: a feature per place at its point, one with no point for a query without places", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local });
    const response = await post(geocoder, { queries: [{ q: "Zurich", limit: 1, id: "z" }, { q: "xqzzyxqqqq" }] }, "?format=geojson");
    expect(response.headers.get("content-type")).toStartWith("application/geo+json");
    const { features } = (await readJson(response)) as { features: Array<{ geometry: unknown; properties: Record<string, unknown> }> };
    expect(features.map((feature) => [feature.properties.index, feature.properties.settlement, feature.geometry === null])).toEqual([
      [0, "Zürich", false],
      [1, null, true],
    ]);
  });

  test.each([
    [{ queries: "Paris" }, "queries must be a list of 1 to 1000 objects with q"],
    [{ queries: [] }, null],
    [{ queries: ["Paris"] }, "queries must be a list of 1 to 1000 objects with q"],
    [{ queries: [{ q: "Paris" }], language: "x_y" }, "language must be a language tag such as en, de or pt-BR"],
    [{ queries: [{ q: "Paris" }], platform: "nowhere" }, null],
    [{ queries: Array.from({ length: 1001 }, () => ({ q: "Paris" })) }, null],
  ])("%# a body out of shape is a 400 for the whole batch", async (body, message) => {
    await using geocoder = startTestGeocoder({ providers: {}, local });
    const response = await post(geocoder, body);
    expect(response.status).toBe(400);
    if (message) expect(((await readJson(response)) as Body).error!.message).toBe(message);
  });
});

test("the chain's budget must be a positive number of ms, for both directions", () => {
  for (const budget of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
    expect(() => new ProviderChain(budget, () => new Date(), silentLogger, undefined)).toThrow(RangeError);
  }
});
