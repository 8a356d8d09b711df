import { describe, expect, test } from "bun:test";
import type { PlacesTable } from "../src/local/places-dataset.ts";
import { RegionGrid } from "../src/local/region-grid.ts";
import { unitsPerDegree, type RegionsExtract } from "../src/local/regions-extract.ts";
import { reachKm, Settlements } from "../src/local/settlements.ts";

/**
 * The settlement rule on hand-made places around the equator, where 0.01° is
 * 1.11 km: two regions of one country side by side, West (0°–1° E) and East
 * (1°–2° E), and a third country's region south of them.
 */
const km = 1 / 111.2;

function extract(): RegionsExtract {
  const boxes: Array<[countryCode: string, name: string, west: number, south: number, east: number, north: number]> = [
    ["XX", "West", 0, 0, 1, 1],
    ["XX", "East", 1, 0, 2, 1],
    ["SG", "Central", 0, -2, 1, -1],
    ["SG", "North", 1, -2, 2, -1],
  ];
  const ringEnds: number[] = [];
  const coordinates: number[] = [];
  for (const [, , west, south, east, north] of boxes) {
    for (const [lon, lat] of [
      [west, south],
      [east, south],
      [east, north],
      [west, north],
      [west, south],
    ] as const) {
      coordinates.push(Math.round(lon * unitsPerDegree), Math.round(lat * unitsPerDegree));
    }
    ringEnds.push(coordinates.length / 2);
  }
  return {
    source: "test boxes",
    regions: boxes.map(([countryCode, name]) => ({ countryCode, name })),
    ringEnds: Uint32Array.from(ringEnds),
    ringRegions: Uint16Array.from(boxes.map((_, i) => i)),
    coordinates: Int32Array.from(coordinates),
  };
}

const regions = new RegionGrid(extract(), 1);

interface TestPlace {
  name: string;
  latitude: number;
  longitude: number;
  population: number;
  country?: string;
  section?: boolean;
}

function settlementsOf(places: TestPlace[]): Settlements {
  const table: PlacesTable = {
    count: places.length,
    ids: Float64Array.from(places, (_, i) => i + 1),
    names: places.map((p) => p.name),
    countries: places.map((p) => p.country ?? "XX"),
    latitudes: Float64Array.from(places, (p) => p.latitude),
    longitudes: Float64Array.from(places, (p) => p.longitude),
    populations: Float64Array.from(places, (p) => p.population),
    sections: Uint8Array.from(places, (p) => (p.section ? 1 : 0)),
  };
  return new Settlements(table, regions, 20);
}

function find(settlements: Settlements, latitude: number, longitude: number, country = "XX") {
  const found = settlements.find(latitude, longitude, { countryCodes: new Set([country]), region: regions.regionAt(latitude, longitude), maxKm: 50 });
  return found && { settlement: found.settlement, district: found.district };
}

describe("Settlements: distance weighed against size", () => {
  test("a city of a million 4 km away beats a village of 1,200 at 1 km; the village wins at 400 m", () => {
    expect(reachKm(1_000_000)).toBeCloseTo(4, 5);
    const city = { name: "City", latitude: 0.5 + 4 * km, longitude: 0.5, population: 1_000_000 };
    expect(find(settlementsOf([city, { name: "Village", latitude: 0.5 - 1 * km, longitude: 0.5, population: 1_200 }]), 0.5, 0.5)).toEqual({
      settlement: "City",
      district: null,
    });
    expect(find(settlementsOf([city, { name: "Village", latitude: 0.5 - 0.4 * km, longitude: 0.5, population: 1_200 }]), 0.5, 0.5)).toEqual({
      settlement: "Village",
      district: null,
    });
  });

  test("among places of one size, the nearest", () => {
    const settlements = settlementsOf([
      { name: "Near", latitude: 0.5, longitude: 0.5 + 2 * km, population: 5_000 },
      { name: "Far", latitude: 0.5, longitude: 0.5 - 3 * km, population: 5_000 },
    ]);
    expect(find(settlements, 0.5, 0.5)?.settlement).toBe("Near");
  });

  test("nothing within range is no settlement", () => {
    expect(find(settlementsOf([{ name: "Far away", latitude: 0.5, longitude: 0.5 + 60 * km, population: 5_000_000 }]), 0.5, 0.5)).toBeUndefined();
  });
});

describe("Settlements: the point's own region", () => {
  const eastCity = { name: "East City", latitude: 0.5, longitude: 1 + 2 * km, population: 1_000_000 };
  // Far from every point here: they only make XX a country of many places, not a city-state.
  const elsewhere = [
    { name: "Elsewhere", latitude: 0.05, longitude: 1.95, population: 5_000_000 },
    { name: "Further", latitude: 0.95, longitude: 1.95, population: 5_000_000 },
  ];

  test("a place across the region border never wins while the point's region has one in range", () => {
    const westVillage = { name: "West Village", latitude: 0.5, longitude: 1 - 6 * km, population: 1_200 };
    expect(find(settlementsOf([eastCity, westVillage, ...elsewhere]), 0.5, 1 - 0.5 * km)?.settlement).toBe("West Village");
  });

  test("where the region has none in range, the rest of the country counts", () => {
    expect(find(settlementsOf([eastCity, ...elsewhere]), 0.5, 1 - 0.5 * km)?.settlement).toBe("East City");
  });

  test("never a place of another country", () => {
    const neighbour = { name: "Abroad", latitude: 0.5, longitude: 1 - 1 * km, population: 1_000_000, country: "YY" };
    expect(find(settlementsOf([neighbour]), 0.5, 1 - 0.5 * km)).toBeUndefined();
  });

  test("in a city-state the regions are the city's own parts: the city wins across them", () => {
    const layout = (country: string) => [
      { name: "The City", latitude: -1.5, longitude: 1 - 6 * km, population: 3_000_000, country },
      { name: "Estate", latitude: -1.5, longitude: 1 + 2 * km, population: 1_000, country },
    ];
    // One place holds 99.97 % of the country's people.
    expect(find(settlementsOf(layout("SG")), -1.5, 1 + 0.1 * km, "SG")?.settlement).toBe("The City");
    // The same layout in a country of many places keeps to the region.
    const ordinary = [...layout("SG"), { name: "Elsewhere", latitude: -1.9, longitude: 1.9, population: 5_000_000, country: "SG" }];
    expect(find(settlementsOf(ordinary), -1.5, 1 + 0.1 * km, "SG")?.settlement).toBe("Estate");
  });
});

describe("Settlements: a city's parts are its districts", () => {
  const city = { name: "Metropolis", latitude: 0.5, longitude: 0.5, population: 8_000_000 }; // core 11.3 km

  test("a borough inside the city's core names the city, and itself as the district", () => {
    const borough = { name: "Borough", latitude: 0.5 + 8 * km, longitude: 0.5, population: 1_500_000 };
    expect(find(settlementsOf([city, borough]), 0.5 + 8.2 * km, 0.5)).toEqual({ settlement: "Metropolis", district: "Borough" });
  });

  test("parts nest: the district is the part directly under the city", () => {
    const borough = { name: "Borough", latitude: 0.5 + 8 * km, longitude: 0.5, population: 1_500_000 }; // core 4.9 km
    const quarter = { name: "Quarter", latitude: 0.5 + 10 * km, longitude: 0.5, population: 40_000 };
    expect(find(settlementsOf([city, borough, quarter]), 0.5 + 10 * km, 0.5)).toEqual({ settlement: "Metropolis", district: "Borough" });
  });

  test("a town outside the city's core is a settlement of its own", () => {
    const town = { name: "Town", latitude: 0.5 + 11 * km, longitude: 0.5, population: 100_000 };
    expect(find(settlementsOf([city, town]), 0.5 + 11 * km, 0.5)).toEqual({ settlement: "Town", district: null });
  });

  test("a section of a city (PPLX) is a district of the nearest bigger place, never a settlement", () => {
    const section = { name: "Quartier", latitude: 0.5, longitude: 0.5 + 1 * km, population: 20_000, section: true };
    const town = { name: "Town", latitude: 0.5, longitude: 0.5 + 15 * km, population: 30_000 };
    const settlements = settlementsOf([{ ...city, longitude: 0.5 - 8 * km }, section, town]);
    expect(find(settlements, 0.5, 0.5 + 1 * km)).toEqual({ settlement: "Metropolis", district: "Quartier" });
    // Without a bigger place within 10 km, a section names nothing: the town is found instead.
    expect(find(settlementsOf([section, town]), 0.5, 0.5 + 1 * km)).toEqual({ settlement: "Town", district: null });
  });
});
