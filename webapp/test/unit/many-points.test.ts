import { describe, expect, test } from "bun:test";
import { pointError, pointsFromCsv, pointsFromLines, resultsCsv, type PointFeature, type PointsInput } from "../../src/client/lib/many-points.ts";

const feature = (id: number, properties: Record<string, unknown>): PointFeature => ({
  type: "Feature",
  geometry: { type: "Point", coordinates: [2, 48] },
  properties: { id, ...properties },
});

describe("many points on the playground, read and written", () => {
  test("pasted lines: each a pair in any form the fields read; blank lines skipped, the rest refused by line", () => {
    expect(pointsFromLines("48.8566, 2.3522\r\n\n  52.52 13.405 \nnorth\n48°51′24″N 2°21′08″E")).toEqual({
      header: ["line", "input"],
      rows: [
        { columns: ["1", "48.8566, 2.3522"], latitude: "48.8566", longitude: "2.3522" },
        { columns: ["3", "52.52 13.405"], latitude: "52.52", longitude: "13.405" },
        { columns: ["5", "48°51′24″N 2°21′08″E"], latitude: "48.856667", longitude: "2.352222" },
      ],
      problems: ["line 4: not a pair of coordinates"],
    });
  });

  test("a CSV file: the columns by name as bun run geocode finds them, its broken rows said by line; no such column is a sentence", () => {
    const read = pointsFromCsv('\uFEFFStore,LAT,lon\r\n"Café, Paris",48.85,2.35\r\nbroken,"1,2\r\n');
    expect(read).toEqual({
      header: ["Store", "LAT", "lon"],
      rows: [{ columns: ["Café, Paris", "48.85", "2.35"], latitude: "48.85", longitude: "2.35" }],
      problems: ["line 3: a quoted field opened on this line is never closed"],
    });
    expect(pointsFromCsv("name,x,y\n")).toBe("This file cannot be read: the header has no latitude column (looked for latitude, lat; found name, x, y).");
    expect(pointsFromCsv("")).toBe("This file is empty: it needs a header with latitude and longitude columns.");
  });

  test("the CSV download keeps the input's columns and adds the first address, the provider and the error of each row", () => {
    const input = pointsFromLines("48.85, 2.35\n10, 20\n1, 1");
    const csv = resultsCsv(input, [
      feature(0, { formatted_address: "Paris, France", country: "France", country_code: "FR", provider: "LOCAL", error: null }),
      feature(0, { formatted_address: "second address, not written", provider: "LOCAL", error: null }),
      feature(1, { formatted_address: null, provider: null, error: { code: "providers_failed", message: "every provider failed (HERE: timeout)" } }),
    ]);
    expect(csv.split("\r\n")).toEqual([
      "line,input,formatted_address,postcode,country,country_code,state,district,settlement,street,house,provider,error",
      '1,"48.85, 2.35","Paris, France",,France,FR,,,,,,LOCAL,',
      '2,"10, 20",,,,,,,,,,,providers_failed: every provider failed (HERE: timeout)',
      '3,"1, 1",,,,,,,,,,,not asked',
      "",
    ]);
  });

  test("a point's error is read only in the batch's shape, {code, message}: any other is no error rather than 'undefined: undefined'", () => {
    expect(pointError({ error: { code: "invalid_coordinates", message: "latitude must be a number" } })).toEqual({
      code: "invalid_coordinates",
      message: "latitude must be a number",
    });
    for (const error of [null, undefined, "providers_failed", 7, [], { code: "x" }, { code: 1, message: "m" }]) expect(pointError({ error })).toBeNull();
    const csv = resultsCsv(pointsFromLines("1, 1"), [feature(0, { error: { message: "no code" } })]);
    expect(csv.split("\r\n")[1]).toBe('1,"1, 1",,,,,,,,,,,');
  });

  test("a CSV file's text marks (') are taken off as it is read; the download writes what a spreadsheet would run as text", () => {
    const input = pointsFromCsv("name,lat,lng\r\n\"'=1+2\",'-33.9,151.2\r\n=cmd|' /C calc'!A0,-33.8688,151.2093\r\n");
    expect(input).toEqual({
      header: ["name", "lat", "lng"],
      rows: [
        { columns: ["=1+2", "-33.9", "151.2"], latitude: "-33.9", longitude: "151.2" },
        { columns: ["=cmd|' /C calc'!A0", "-33.8688", "151.2093"], latitude: "-33.8688", longitude: "151.2093" },
      ],
      problems: [],
    });
    const address = { formatted_address: "@SUM(A1:A9)", street: "+1+1", country_code: "AU", provider: "LOCAL", error: null };
    const csv = resultsCsv(input as PointsInput, [feature(0, address), feature(1, address)]);
    expect(csv.split("\r\n")).toEqual([
      "name,lat,lng,formatted_address,postcode,country,country_code,state,district,settlement,street,house,provider,error",
      `"'=1+2",-33.9,151.2,"'@SUM(A1:A9)",,,AU,,,,"'+1+1",,LOCAL,`,
      `"'=cmd|' /C calc'!A0",-33.8688,151.2093,"'@SUM(A1:A9)",,,AU,,,,"'+1+1",,LOCAL,`,
      "",
    ]);
    // A pasted line is its own column: one that a spreadsheet would take for a formula is written as text too.
    expect(resultsCsv(pointsFromLines("-33.86, 151.2"), [feature(0, { provider: "LOCAL", error: null })]).split("\r\n")[1]).toBe(
      `1,"'-33.86, 151.2",,,,,,,,,,LOCAL,`,
    );
  });
});
