import { describe, expect, test } from "bun:test";
import { cacheKey, defaultChain, formatCoordinate } from "../src/cache/cache-key.ts";

describe("formatCoordinate", () => {
  test.each([
    // [input, expected, why]
    [48.85837, "48.858370", "pads to 6 decimals"],
    [2.2944813, "2.294481", "drops the 7th decimal below half"],
    [2.2944815, "2.294482", "rounds the half away from zero"],
    [-2.2944815, "-2.294482", "rounds the half away from zero when negative"],
    [48.8583705, "48.858371", "rounds the decimal the caller typed, though toFixed(6) gives 48.858370"],
    [1.0000005, "1.000001", "a half at the 7th decimal"],
    [1.00000049999, "1.000000", "just under a half"],
    [1.9999995, "2.000000", "carries into the whole degrees"],
    [179.9999995, "180.000000", "carries up to 180"],
    [-179.9999996, "-180.000000", "carries down to -180"],
    [0.1 + 0.2, "0.300000", "float noise is rounded away"],
    [0, "0.000000", "zero"],
    [-0, "0.000000", "negative zero has no sign"],
    [1e-7, "0.000000", "exponent notation, rounds to zero"],
    [-1e-7, "0.000000", "a negative that rounds to zero has no sign"],
    [-4.9e-7, "0.000000", "just under half of the last place, negative"],
    [5e-7, "0.000001", "half of the last place, in exponent notation"],
    [-5e-7, "-0.000001", "half of the last place, negative"],
    [1.5e-6, "0.000002", "exponent notation above the last place"],
    [180, "180.000000", "180 stays 180"],
    [-180, "-180.000000", "-180 stays -180, not folded onto 180"],
    [90, "90.000000", "whole degrees"],
    [-90, "-90.000000", "the south pole"],
    [12.3456789012345, "12.345679", "many decimals"],
  ] as Array<[number, string, string]>)("%p → %s (%s)", (input, expected) => {
    expect(formatCoordinate(input)).toBe(expected);
  });

  test.each([[Number.NaN], [Number.POSITIVE_INFINITY], [Number.NEGATIVE_INFINITY]])("refuses %p", (input) => {
    expect(() => formatCoordinate(input)).toThrow(RangeError);
  });
});

describe("cacheKey", () => {
  test.each([
    [{ platform: "nominatim", latitude: 48.85837, longitude: 2.294481, language: "en" }, "reverse:v1:nominatim:48.858370:2.294481:en"],
    [{ platform: "NOMINATIM", latitude: 48.85837, longitude: 2.294481, language: "EN" }, "reverse:v1:nominatim:48.858370:2.294481:en"],
    [
      { platform: "NOMINATIM_REPLICA_1", latitude: -33.8688, longitude: 151.2093, language: "en-GB" },
      "reverse:v1:nominatim_replica_1:-33.868800:151.209300:en-gb",
    ],
    [{ platform: defaultChain, latitude: 0, longitude: 0 }, "reverse:v1:default:0.000000:0.000000:*"],
    [{ platform: defaultChain, latitude: -0, longitude: -1e-7, language: "" }, "reverse:v1:default:0.000000:0.000000:*"],
    [{ platform: defaultChain, latitude: 10, longitude: 20, language: "  " }, "reverse:v1:default:10.000000:20.000000:*"],
    [{ platform: "here", latitude: 10, longitude: 180, language: "de" }, "reverse:v1:here:10.000000:180.000000:de"],
    [{ platform: "here", latitude: 10, longitude: -180, language: "de" }, "reverse:v1:here:10.000000:-180.000000:de"],
    [{ platform: "geoapify", latitude: 1, longitude: 2, language: "*" }, "reverse:v1:geoapify:1.000000:2.000000:%2A"],
    [{ platform: "geoapify", latitude: 1, longitude: 2, language: "en:x y" }, "reverse:v1:geoapify:1.000000:2.000000:en%3Ax%20y"],
    [{ platform: "geoapify", latitude: 1, longitude: 2, language: "zh-hant.tw" }, "reverse:v1:geoapify:1.000000:2.000000:zh-hant%2Etw"],
    [{ platform: "geoapify", latitude: 1, longitude: 2, language: "fr\ud800" }, "reverse:v1:geoapify:1.000000:2.000000:fr%uD800"],
  ])("%o → %s", (input, expected) => {
    expect(cacheKey(input)).toBe(expected);
  });

  test("queries that differ only past the 6th decimal share a key; those that differ at it do not", () => {
    const at = (latitude: number) => cacheKey({ platform: defaultChain, latitude, longitude: 2.294481, language: "fr" });
    expect(at(48.8583701)).toBe(at(48.8583704));
    expect(at(48.85837)).not.toBe(at(48.858371));
  });

  test("no language and an explicit one never share a key", () => {
    const keys = [undefined, "*", "-", "_", "none"].map((language) => cacheKey({ platform: "here", latitude: 1, longitude: 2, language }));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
