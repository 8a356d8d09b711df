import { describe, expect, test } from "bun:test";
import { check } from "@placemarkio/check-geojson";
import { readJson, reply, startFakeProvider } from "@linkgeo/testing";
import { answerFormat } from "../src/geocoding/geojson.ts";
import { inProcessProvider, localVienna } from "./support/in-process-provider.ts";
import { startTestGeocoder } from "./support/test-geocoder.ts";

/** The body, after a validator of RFC 7946's rules (structure, positions, no confusing members) found nothing wrong. */
async function validGeoJson(
  response: Response,
): Promise<{ type: string; features: Array<{ geometry: { coordinates: number[] } | null; properties: Record<string, unknown> }> }> {
  expect(response.headers.get("content-type")).toStartWith("application/geo+json");
  const text = await response.text();
  check(text);
  return JSON.parse(text);
}

describe("answers as GeoJSON", () => {
  test("format=geojson, or Accept: application/geo+json, gives a FeatureCollection of the point with the address fields; JSON stays the default", async () => {
    await using nominatim = startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") });
    const geocoder = startTestGeocoder({ providers: { nominatim: { userAgent: "t", url: nominatim.url().toString() } } });

    const asked = await geocoder.get("/reverse-geocode?latitude=48.8606&longitude=2.3508&format=geojson");
    expect(asked.status).toBe(200);
    expect(asked.headers.get("x-cache")).toBe("MISS");
    const collection = await validGeoJson(asked);
    expect(collection.type).toBe("FeatureCollection");
    expect(collection.features).toHaveLength(1);
    // RFC 7946 order: longitude first.
    expect(collection.features[0]!.geometry!.coordinates).toEqual([2.3508, 48.8606]);
    expect(collection.features[0]!.properties).toMatchObject({
      country_code: "FR",
      settlement: "Paris",
      postcode: "75004",
      provider: "NOMINATIM",
      cache: "MISS",
    });

    const accepted = await geocoder.get("/reverse-geocode?latitude=48.8606&longitude=2.3508", { accept: "application/geo+json" });
    expect((await validGeoJson(accepted)).features[0]!.properties.cache).toBe("L1");
    const plain = await geocoder.get("/reverse-geocode?latitude=48.8606&longitude=2.3508");
    expect(plain.headers.get("content-type")).toStartWith("application/json");
    expect(await readJson(plain)).toMatchObject({ success: true, error: null });
  });

  test("a batch is one collection: a feature per address of each point, one with null fields for a point without, its error kept", async () => {
    const geocoder = startTestGeocoder({ providers: {}, local: inProcessProvider([localVienna]) });
    const response = await geocoder.app.handle(
      new Request("http://localhost/reverse-geocode/batch?format=geojson", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          points: [
            { id: "a", latitude: 48.2, longitude: 16.37 },
            { id: "b", latitude: 95, longitude: 0 },
          ],
        }),
      }),
    );
    expect(response.status).toBe(200);
    const collection = await validGeoJson(response);
    expect(collection.features.map((feature) => [feature.properties.id, feature.properties.index, feature.geometry?.coordinates ?? null])).toEqual([
      ["a", 0, [16.37, 48.2]],
      ["b", 1, null],
    ]);
    expect(collection.features[0]!.properties).toMatchObject({ country_code: "AT", provider: "LOCAL", error: null });
    expect(collection.features[1]!.properties).toMatchObject({ country_code: null, settlement: null, error: { code: "invalid_coordinates", index: 1 } });
  });

  test("nothing there is an empty collection; an error keeps the JSON error shape; a format we do not make is a 400", async () => {
    const geocoder = startTestGeocoder({ providers: {}, local: inProcessProvider([]) });
    expect((await validGeoJson(await geocoder.get("/reverse-geocode?latitude=-40&longitude=160&format=geojson"))).features).toEqual([]);
    const refused = await geocoder.get("/reverse-geocode?latitude=100&longitude=0&format=geojson");
    expect(refused.status).toBe(400);
    expect(refused.headers.get("content-type")).toStartWith("application/json");
    expect(((await readJson(refused)) as { error: { code: string } }).error.code).toBe("invalid_coordinates");
    const unknown = await geocoder.get("/reverse-geocode?latitude=1&longitude=1&format=kml");
    expect(unknown.status).toBe(400);
    expect(((await readJson(unknown)) as { error: { message: string } }).error.message).toBe("format must be json or geojson");
  });

  test("the Accept header is read as a list of media types, parameters and case aside", () => {
    expect(answerFormat(undefined, "application/json, application/GEO+json;q=0.9")).toBe("geojson");
    expect(answerFormat(undefined, "application/geo+jsonx")).toBe("json");
    expect(answerFormat(undefined, null)).toBe("json");
    expect(answerFormat("json", "application/geo+json")).toBe("json");
  });
});
