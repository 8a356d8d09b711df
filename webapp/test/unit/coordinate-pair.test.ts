import { describe, expect, test } from "bun:test";
import { coordinatePairOf } from "../../src/client/lib/coordinate-pair.ts";

describe("a coordinate pair as people paste it", () => {
  test.each([
    ["48.8566, 2.3522", 48.8566, 2.3522],
    ["48.8566 2.3522", 48.8566, 2.3522],
    ["  -33.8688;151.2093 ", -33.8688, 151.2093],
    ["−22.9068, −43.1729", -22.9068, -43.1729],
    ["48°51′24″N 2°21′08″E", 48.856667, 2.352222],
    [`48°51'24"N, 2°21'8"E`, 48.856667, 2.352222],
    ["2°21′08″E 48°51′24″N", 48.856667, 2.352222],
    ["33°52′S 151°12′E", -33.866667, 151.2],
    ["40.7128° N, 74.0060° W", 40.7128, -74.006],
  ])("%p is %p, %p", (text, latitude, longitude) => {
    expect(coordinatePairOf(text)).toEqual({ latitude, longitude });
  });

  test.each(["48.8566", "48.8566, 2.3522, 7", "91, 2", "48, 181", "48°51′24″N 2°21′08″N", "north 48, east 2", "48.8566,2.3522x", ""])(
    "%p is no pair",
    (text) => {
      expect(coordinatePairOf(text)).toBeNull();
    },
  );
});
