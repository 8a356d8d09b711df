import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readRegionsExtract } from "../../../geocoder/src/local/regions-extract.ts";
import { drawingHash, recordedHashes, worldMapInputs, worldMapInputsHash } from "../../../scripts/build-world-map.ts";
import { coordinatesToPoint, pointToCoordinates } from "../../src/world-map.ts";

const svgPath = join(import.meta.dir, "../../src/assets/world-map.svg");
const modulePath = join(import.meta.dir, "../../src/world-map.ts");

const svg = readFileSync(svgPath, "utf8");
const countryPaths = new Map([...svg.matchAll(/<path class="country" data-country="([A-Z]{2})" d="([^"]*)">/g)].map((m) => [m[1]!, parsePath(m[2]!)] as const));

type Ring = Array<[x: number, y: number]>;

/** The rings of path data as absolute points: the M, m, L, l and z the script writes, with implicit repeats. */
function parsePath(d: string): Ring[] {
  const tokens = d.match(/[MmLlZz]|-?(?:\d+(?:\.\d*)?|\.\d+)/g) ?? [];
  const rings: Ring[] = [];
  let command = "";
  let x = 0;
  let y = 0;
  for (let i = 0; i < tokens.length; ) {
    const token = tokens[i]!;
    if (/[A-Za-z]/.test(token)) {
      command = token;
      i++;
      if (command === "z" || command === "Z") [x, y] = rings.at(-1)?.[0] ?? [x, y];
      continue;
    }
    const a = Number(token);
    const b = Number(tokens[i + 1]);
    i += 2;
    const relative = command === command.toLowerCase();
    [x, y] = relative ? [x + a, y + b] : [a, b];
    if (command === "M" || command === "m") {
      rings.push([]);
      command = relative ? "l" : "L";
    }
    rings.at(-1)!.push([x, y]);
  }
  return rings;
}

/** Even-odd, as the SVG fills its paths (fill-rule="evenodd"). */
function inside(rings: Ring[], [px, py]: [number, number]): boolean {
  let crossings = 0;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi > py !== yj > py && px < xj + ((py - yj) * (xi - xj)) / (yi - yj)) crossings++;
    }
  }
  return crossings % 2 === 1;
}

function countriesAt(latitude: number, longitude: number): string[] {
  const { x, y } = coordinatesToPoint(latitude, longitude);
  return [...countryPaths].filter(([, rings]) => inside(rings, [x, y])).map(([code]) => code);
}

describe("world-map.svg", () => {
  test("was drawn from the inputs as they are now and not edited since (else: bun run build:world-map)", () => {
    // The script writes the hash of what it reads (itself, the extract's reader, the extract) and of what it drew:
    // drawing the map again (over a second) on every run is only needed when an input changed.
    const recorded = recordedHashes(svg);
    expect(recorded).toBeDefined();
    expect({ inputs: recorded!.inputs }).toEqual({ inputs: worldMapInputsHash() });
    expect({ drawing: drawingHash(recorded!.below) }).toEqual({ drawing: recorded!.drawing });
    expect(recorded!.below[0]).toStartWith("<svg ");
  });

  test("a changed input or a hand edit below the hashes is told apart", () => {
    const recorded = recordedHashes(svg)!;
    const edited = recordedHashes(svg.replace('data-country="FR"', 'data-country="XX"'))!;
    expect(drawingHash(edited.below)).not.toBe(recorded.drawing);
    expect(recordedHashes(svg.replace(/inputs sha256 [0-9a-f]{64}/, "inputs sha256 changed"))).toBeUndefined();
    expect(worldMapInputs.map((path) => path.split("/").slice(-2).join("/"))).toEqual([
      "scripts/build-world-map.ts",
      "local/regions-extract.ts",
      "assets/regions.bin.gz",
    ]);
  });

  test("is a 360 × 180 image with one path per country of the extract, bar the Vatican", () => {
    expect(svg).toContain(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 180" role="img" aria-label="World map"`);
    const extractCountries = new Set(readRegionsExtract().regions.map((r) => r.countryCode));
    // Vatican City is smaller than the map's 0.01° grid: Italy's path covers it.
    extractCountries.delete("VA");
    expect([...countryPaths.keys()].sort()).toEqual([...extractCountries].sort());
    expect(svg.match(/<path /g)?.length).toBe(countryPaths.size);
    expect(svg.match(/<title>/g)?.length).toBe(countryPaths.size);
  });

  test("has every vertex within the viewBox, written with at most 2 decimals", () => {
    for (const [code, rings] of countryPaths) {
      expect({ code, rings: rings.length > 0 }).toEqual({ code, rings: true });
      for (const ring of rings) {
        expect(ring.length).toBeGreaterThanOrEqual(3);
        const outside = ring.filter(([x, y]) => !(x >= -1e-9 && x <= 360 + 1e-9 && y >= -1e-9 && y <= 180 + 1e-9));
        expect({ code, outside }).toEqual({ code, outside: [] });
      }
    }
    expect(svg.match(/\.\d{3}/)).toBeNull();
  });

  test("has nothing a strict CSP or an <img> would refuse: no script, style, handler or outside reference", () => {
    expect(svg).not.toMatch(/<script|<style|<foreignObject|<image|<use|<iframe/i);
    expect(svg).not.toMatch(/\sstyle=|\son[a-z]+=|href|url\(|javascript:/i);
    // The namespace is the only URL, and it is a name, not a fetch.
    expect(svg.match(/https?:\/\/[^"\s]*/g)).toEqual(["http://www.w3.org/2000/svg"]);
    expect(svg).not.toMatch(/\sfill=|\sstroke=/);
  });

  test("names its data source, licence and build command", () => {
    expect(svg).toContain("Natural Earth");
    expect(svg).toContain("public domain");
    expect(svg).toContain("bun run build:world-map");
  });

  test("stays within its size budget: 250 KB, 90 KB gzipped", () => {
    expect(Buffer.byteLength(svg)).toBeLessThan(250 * 1024);
    expect(Bun.gzipSync(svg).length).toBeLessThan(90 * 1024);
  });

  test.each([
    ["FR", "Paris", 48.8566, 2.3522],
    ["BR", "Brasília", -15.7939, -47.8828],
    ["AU", "Canberra", -35.2809, 149.13],
    ["US", "Washington", 38.9072, -77.0369],
    ["ZA", "Pretoria", -25.7479, 28.2293],
    // Lesotho is a hole in South Africa's path, and a path of its own.
    ["LS", "Maseru", -29.31, 27.48],
    // Near where Bavaria, Baden-Württemberg and Hesse meet: merged regions leave no gap between them.
    ["DE", "Würzburg", 49.7913, 9.9534],
  ])("%s: %s is inside its country's path and no other", (country, _, latitude, longitude) => {
    expect(countriesAt(latitude, longitude)).toEqual([country]);
  });

  test.each([
    ["the South Atlantic", -30, -20],
    ["the Caspian Sea", 42, 51],
    ["the Pacific by the antimeridian", 0, 179.9],
  ])("a point in %s is in no country", (_, latitude, longitude) => {
    expect(countriesAt(latitude, longitude)).toEqual([]);
  });
});

describe("world-map.ts: pointToCoordinates and coordinatesToPoint", () => {
  test.each([
    [0, 0, 90, -180],
    [360, 180, -90, 180],
    [180, 90, 0, 0],
    [182.3522, 41.1434, 48.8566, 2.3522],
  ])("the map point (%p, %p) is at latitude %p, longitude %p", (x, y, latitude, longitude) => {
    expect(pointToCoordinates(x, y)).toEqual({ latitude, longitude });
  });

  test.each([
    [48.8566, 2.3522],
    [-15.7939, -47.8828],
    [-33.86882, 151.20929],
    [64.14659, -21.94222],
    [90, 180],
    [-90, -180],
    [0, 0],
  ])("(%p, %p) goes to the map and back unchanged", (latitude, longitude) => {
    const { x, y } = coordinatesToPoint(latitude, longitude);
    expect(pointToCoordinates(x, y)).toEqual({ latitude, longitude });
  });

  test("rounds to 5 decimals, without a negative zero", () => {
    expect(pointToCoordinates(180.123456789, 89.987654321)).toEqual({ latitude: 0.01235, longitude: 0.12346 });
    const nearZero = pointToCoordinates(179.999999, 90.000001);
    expect(Object.is(nearZero.latitude, 0) && Object.is(nearZero.longitude, 0)).toBe(true);
  });

  test.each([
    ["NaN to the middle", NaN, NaN, { latitude: 0, longitude: 0 }],
    ["Infinity", Infinity, Infinity, { latitude: -90, longitude: 180 }],
    ["-Infinity", -Infinity, -Infinity, { latitude: 90, longitude: -180 }],
    ["huge numbers", 1e308, -1e308, { latitude: 90, longitude: 180 }],
    ["a point just off the map", -0.5, 180.5, { latitude: -90, longitude: -180 }],
  ])("pointToCoordinates clamps %s onto the map", (_, x, y, coordinates) => {
    expect(pointToCoordinates(x, y)).toEqual(coordinates);
  });

  test.each([
    ["NaN to the middle", NaN, NaN, { x: 180, y: 90 }],
    ["Infinity", Infinity, Infinity, { x: 360, y: 0 }],
    ["-Infinity", -Infinity, -Infinity, { x: 0, y: 180 }],
    ["huge numbers", -1e308, 1e308, { x: 360, y: 180 }],
    ["a latitude past the pole and a longitude past the antimeridian", 91, -181, { x: 0, y: 0 }],
  ])("coordinatesToPoint clamps %s onto the map", (_, latitude, longitude, point) => {
    expect(coordinatesToPoint(latitude, longitude)).toEqual(point);
  });

  test("imports nothing, so the browser bundle takes the module as it is", () => {
    const source = readFileSync(modulePath, "utf8");
    expect(source).not.toMatch(/^\s*import\b|^\s*export\b.*\bfrom\b|\brequire\(|\bBun\.|\bprocess\./m);
  });
});
