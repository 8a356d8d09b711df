import { describe, expect, test } from "bun:test";
import { onSegment } from "../src/local/plane-geometry.ts";
import { RegionGrid } from "../src/local/region-grid.ts";
import { readRegionsExtract, unitsPerDegree, type Region, type RegionsExtract } from "../src/local/regions-extract.ts";

type Ring = Array<[longitude: number, latitude: number]>;

/** An extract from regions given as rings in degrees (closed here). */
function extractOf(shapes: Array<Region & { rings: Ring[] }>): RegionsExtract {
  const ringEnds: number[] = [];
  const ringRegions: number[] = [];
  const coordinates: number[] = [];
  shapes.forEach(({ rings }, region) => {
    for (const ring of rings) {
      for (const [lon, lat] of [...ring, ring[0]!]) coordinates.push(Math.round(lon * unitsPerDegree), Math.round(lat * unitsPerDegree));
      ringEnds.push(coordinates.length / 2);
      ringRegions.push(region);
    }
  });
  return {
    source: "test shapes",
    regions: shapes.map(({ countryCode, name }) => ({ countryCode, name })),
    ringEnds: Uint32Array.from(ringEnds),
    ringRegions: Uint16Array.from(ringRegions),
    coordinates: Int32Array.from(coordinates),
  };
}

const box = (west: number, south: number, east: number, north: number): Ring => [
  [west, south],
  [east, south],
  [east, north],
  [west, north],
];

/** Even-odd over every ring of every region: the slow answer the grid must agree with. */
function bruteForceRegions(extract: RegionsExtract, latitude: number, longitude: number): string[] {
  const x = Math.round(longitude * unitsPerDegree);
  const y = Math.round(latitude * unitsPerDegree);
  const xy = extract.coordinates;
  const parity = new Map<number, number>();
  let first = 0;
  extract.ringEnds.forEach((end, ring) => {
    let crossings = 0;
    for (let a = first * 2; a < (end - 1) * 2; a += 2) {
      const ax = xy[a]!,
        ay = xy[a + 1]!,
        bx = xy[a + 2]!,
        by = xy[a + 3]!;
      if (ay <= y !== by <= y && ax + ((y - ay) * (bx - ax)) / (by - ay) < x) crossings++;
    }
    const region = extract.ringRegions[ring]!;
    parity.set(region, (parity.get(region) ?? 0) + crossings);
    first = end;
  });
  return [...parity].filter(([, count]) => count % 2 === 1).map(([region]) => extract.regions[region]!.name);
}

/** Whether the point lies exactly on some edge, where "inside" is a matter of convention. */
function onBoundary(extract: RegionsExtract, latitude: number, longitude: number): boolean {
  const x = Math.round(longitude * unitsPerDegree);
  const y = Math.round(latitude * unitsPerDegree);
  const xy = extract.coordinates;
  let first = 0;
  for (const end of extract.ringEnds) {
    for (let a = first * 2; a < (end - 1) * 2; a += 2) {
      if (onSegment(xy[a]!, xy[a + 1]!, xy[a + 2]!, xy[a + 3]!, x, y)) return true;
    }
    first = end;
  }
  return false;
}

describe("RegionGrid on hand-drawn shapes", () => {
  const shapes = extractOf([
    // A square with a square hole.
    { countryCode: "AA", name: "Holed", rings: [box(0, 0, 10, 10), box(4, 4, 6, 6)] },
    // Two squares of one region sharing a side: the side must not count as a border.
    { countryCode: "BB", name: "Twin", rings: [box(10, 0, 20, 10), box(20, 0, 30, 10)] },
    // One region drawn in two parts either side of ±180°, as Natural Earth draws Chukotka and Fiji.
    { countryCode: "CC", name: "Antimeridian", rings: [box(170, -10, 180, 0), box(-180, -10, -170, 0)] },
    // Down to the South Pole along the bottom edge, like Antarctica.
    { countryCode: "DD", name: "Polar", rings: [box(-180, -90, 180, -80)] },
    // A thin diagonal sliver crossing many cells.
    {
      countryCode: "EE",
      name: "Sliver",
      rings: [
        [
          [40, 40],
          [60, 60],
          [60, 60.3],
          [40, 40.3],
        ],
      ],
    },
  ]);
  const grid = new RegionGrid(shapes, 1);
  const nameAt = (lat: number, lon: number) => grid.regionAt(lat, lon)?.name ?? null;

  test.each([
    ["inside the holed square", 2, 2, "Holed"],
    ["in its hole", 5, 5, null],
    ["north of it", 12, 5, null],
    ["in the twin's first half", 5, 15, "Twin"],
    ["on the twin's inner side", 5, 20, "Twin"],
    ["just past it", 5, 20.00001, "Twin"],
    ["west of 180°", -5, 179.99, "Antimeridian"],
    ["on 180°", -5, 180, "Antimeridian"],
    ["east of 180°", -5, -179.99, "Antimeridian"],
    ["at the South Pole", -90, 0, "Polar"],
    ["near the South Pole elsewhere", -89.9, 123.4, "Polar"],
    ["at the North Pole", 90, 0, null],
    ["in the sliver", 50.15, 50, "Sliver"],
    ["beside the sliver", 50.5, 50, null],
  ] as const)("%s", (_, lat, lon, expected) => {
    expect(nameAt(lat, lon)).toBe(expected);
  });

  test("carries each region's country with it", () => {
    expect(grid.regionAt(2, 2)).toEqual({ countryCode: "AA", name: "Holed" });
    expect(grid.source).toBe("test shapes");
  });

  test("agrees with a full even-odd scan on points that sit on cell centres, lines and corners", () => {
    // Quarter-degree points on a 1° grid whose shapes have corners on whole and half degrees:
    // walked lines pass exactly through vertices and along edges again and again.
    const jagged = extractOf([
      {
        countryCode: "AA",
        name: "Zigzag",
        rings: [
          [
            [0, 0],
            [3, 0.5],
            [6, 0],
            [6, 3],
            [3, 2.5],
            [0, 3],
          ],
        ],
      },
      {
        countryCode: "BB",
        name: "Diamond",
        rings: [
          [
            [10.5, 0.5],
            [12.5, 2.5],
            [10.5, 4.5],
            [8.5, 2.5],
          ],
          box(10, 2, 11, 3),
        ],
      },
      {
        countryCode: "CC",
        name: "Comb",
        rings: [
          [
            [0, 5],
            [8, 5],
            [8, 8],
            [7, 8],
            [7, 6],
            [5, 6],
            [5, 8],
            [4, 8],
            [4, 6],
            [2, 6],
            [2, 8],
            [0, 8],
          ],
        ],
      },
    ]);
    const jaggedGrid = new RegionGrid(jagged, 1);
    let compared = 0;
    for (let lat = -1; lat <= 9; lat += 0.25) {
      for (let lon = -1; lon <= 14; lon += 0.25) {
        if (onBoundary(jagged, lat, lon)) continue;
        const expected = bruteForceRegions(jagged, lat, lon);
        expect({ lat, lon, name: jaggedGrid.regionAt(lat, lon)?.name ?? null }).toEqual({ lat, lon, name: expected[0] ?? null });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(2000);
  });
});

describe("RegionGrid on borders", () => {
  const clockwise = (ring: Ring): Ring => [...ring].reverse();
  // Four neighbours meeting at (10°, 30°), drawn counter-clockwise, and two drawn clockwise whose
  // shared side runs along 30.25°E, through cell centres (cells of 0.5° have centres on .25 and .75).
  const grid = new RegionGrid(
    extractOf([
      { countryCode: "AA", name: "South", rings: [box(0, 20, 10, 30)] },
      { countryCode: "AA", name: "North", rings: [box(0, 30, 10, 40)] },
      { countryCode: "AA", name: "South-east", rings: [box(10, 20, 20, 30)] },
      { countryCode: "AA", name: "North-east", rings: [box(10, 30, 20, 40)] },
      { countryCode: "BB", name: "West", rings: [clockwise(box(25, 20, 30.25, 30))] },
      { countryCode: "BB", name: "East", rings: [clockwise(box(30.25, 20, 40, 30))] },
    ]),
    0.5,
  );

  test.each([
    ["on a shared side, counter-clockwise rings", 30, 5, ["South", "North"]],
    ["on a shared side, clockwise rings", 25, 30.25, ["West", "East"]],
    ["on a shared side, at a cell centre", 25.25, 30.25, ["West", "East"]],
    ["at a corner four regions share", 30, 10, ["South", "North", "South-east", "North-east"]],
  ] as const)("a point %s is in one of the regions there", (_, lat, lon, either) => {
    expect(either as readonly (string | undefined)[]).toContain(grid.regionAt(lat, lon)?.name);
  });

  test("a point on the coast (an outer side) is in its region or in none", () => {
    expect([undefined, "South"]).toContain(grid.regionAt(20, 5)?.name);
  });
});

describe("RegionGrid.nearestRegion", () => {
  const grid = new RegionGrid(
    extractOf([
      { countryCode: "AA", name: "West", rings: [box(-10, 0, 0, 10)] },
      { countryCode: "BB", name: "Dateline", rings: [box(170, 50, 180, 60)] },
    ]),
    0.25,
  );

  test("names the region whose border is nearest, within the distance", () => {
    // 0.1° of longitude at the equator is ~11 km.
    expect(grid.nearestRegion(5, 0.1, 20)?.name).toBe("West");
    expect(grid.nearestRegion(5, 0.1, 5)).toBeUndefined();
  });

  test("reaches across ±180°", () => {
    // 0.2° of longitude at 55° is ~12.8 km.
    expect(grid.nearestRegion(55, -179.8, 20)?.name).toBe("Dateline");
    expect(grid.nearestRegion(55, -179.8, 10)).toBeUndefined();
  });
});

describe("RegionGrid on the shipped Natural Earth extract", () => {
  const extract = readRegionsExtract();
  const grid = new RegionGrid(extract);

  test("agrees with a full even-odd scan on points spread over the globe", () => {
    // Deterministic points, uniform on the sphere (a Fibonacci lattice), ~30 % on land.
    const count = 250;
    let land = 0;
    for (let i = 0; i < count; i++) {
      const lat = (Math.asin(1 - (2 * (i + 0.5)) / count) * 180) / Math.PI;
      const lon = ((((i * 137.50776405) % 360) + 540) % 360) - 180;
      const expected = bruteForceRegions(extract, lat, lon);
      const found = grid.regionAt(lat, lon);
      if (found) land++;
      const agrees = found ? expected.includes(found.name) : expected.length === 0;
      expect({ lat, lon, agrees }).toEqual({ lat, lon, agrees: true });
    }
    expect(land).toBeGreaterThan(count * 0.2);
  });
});
