import { describe, expect, test } from "bun:test";
import { countryOfCode } from "../src/local/country-lookup.ts";
import { loadPlaces } from "../src/local/places-dataset.ts";
import { RegionGrid } from "../src/local/region-grid.ts";
import { readRegionsExtract } from "../src/local/regions-extract.ts";
import { agrees, settlementTable } from "./support/settlement-table.ts";
import { sharedLocalProvider } from "./support/shared-local-provider.ts";

// Its own places and regions, read by the checks below; LOCAL itself is the one the test process shares.
const places = loadPlaces();
const regions = new RegionGrid(readRegionsExtract());
const { provider: local } = sharedLocalProvider();
const answers = settlementTable.map((point) => ({ point, address: local.lookup(point.latitude, point.longitude) }));

/** The region of the place LOCAL named: the one of that name, in that country, nearest the point. */
function regionOfNamedPlace(name: string, countryCode: string, latitude: number, longitude: number): string | undefined {
  const codes = countryOfCode(countryCode).codes;
  let best = -1;
  let bestSquared = Number.POSITIVE_INFINITY;
  for (let i = 0; i < places.count; i++) {
    if (places.names[i] !== name || !codes.has(places.countries[i]!)) continue;
    const squared = (places.latitudes[i]! - latitude) ** 2 + (places.longitudes[i]! - longitude) ** 2;
    if (squared < bestSquared) [best, bestSquared] = [i, squared];
  }
  return best < 0 ? undefined : regions.regionAt(places.latitudes[best]!, places.longitudes[best]!)?.name;
}

describe("LOCAL names the town a person would (settlement table)", () => {
  test("the table: at least 60 points over at least 20 countries", () => {
    expect(settlementTable.length).toBeGreaterThanOrEqual(60);
    expect(new Set(settlementTable.map((point) => point.countryCode)).size).toBeGreaterThanOrEqual(20);
  });

  test("the country of every point", () => {
    const wrong = answers.filter(({ point, address }) => address?.country_code !== point.countryCode).map(({ point }) => point.what);
    expect(wrong).toEqual([]);
  });

  // The issue asked for 80 %; the rule reaches 90/98 (the nearest place alone: 82/98), held here so that a change that loses ground shows.
  test("the settlement the providers give, for at least 90 % of the points", () => {
    const misses = answers.filter(({ point, address }) => !agrees(address?.settlement ?? null, point));
    const agreement = 1 - misses.length / answers.length;
    // The misses, when there are too many, name themselves.
    const listed = misses.map(({ point, address }) => `${point.what}: ${address?.settlement} (want ${point.settlements.join(" or ")})`);
    expect({ agreement: agreement >= 0.9, listed: agreement >= 0.9 ? [] : listed }).toEqual({ agreement: true, listed: [] });
  });

  test("never a settlement of another region than the state it answers", () => {
    const crossing = answers.flatMap(({ point, address }) => {
      if (!address?.settlement || !address.state) return [];
      const region = regionOfNamedPlace(address.settlement, address.country_code!, point.latitude, point.longitude);
      return region === undefined || region === address.state ? [] : [`${point.what}: ${address.settlement} is in ${region}, the state is ${address.state}`];
    });
    expect(crossing).toEqual([]);
  });

  test.each([
    ["the Met, Manhattan", 40.7794, -73.9632, "New York City", "Manhattan"],
    ["Kreuzberg, Berlin", 52.499, 13.403, "Berlin", "Kreuzberg"],
    ["Camden Town, London", 51.539, -0.1426, "London", "Camden Town"],
  ])("a part of a city is its district: %s", (_, latitude, longitude, settlement, district) => {
    expect(local.lookup(latitude, longitude)).toMatchObject({ settlement, district });
  });

  test("a town next to a city is a town of its own, with no district", () => {
    expect(local.lookup(48.8352, 2.241)).toMatchObject({ settlement: "Boulogne-Billancourt", district: null });
  });
});
