import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { coordinatesToPoint, pointToCoordinates } from "../src/web/world-map.ts";

const modulePath = join(import.meta.dir, "../src/web/world-map.ts");

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
