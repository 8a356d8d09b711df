import { describe, expect, test } from "bun:test";
import { HttpError } from "@linkgeo/shared";
import { parseReverseQuery } from "../src/geocoding/coordinates.ts";

function errorOf(raw: Parameters<typeof parseReverseQuery>[0]): { status: number; code: string; message: string } {
  try {
    parseReverseQuery(raw);
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("reverse query", () => {
  test.each([
    [
      { latitude: "48.8584", longitude: "2.2945" },
      { latitude: 48.8584, longitude: 2.2945 },
    ],
    [
      { latitude: "-90", longitude: "180" },
      { latitude: -90, longitude: 180 },
    ],
    [
      { latitude: "+0.5", longitude: "-.25" },
      { latitude: 0.5, longitude: -0.25 },
    ],
    [
      { latitude: "0", longitude: "0", language: "pt-BR" },
      { latitude: 0, longitude: 0, language: "pt-BR" },
    ],
  ])("accepts %p", (raw, expected) => {
    expect(parseReverseQuery(raw)).toEqual(expected);
  });

  test.each([
    [{ latitude: "91", longitude: "0" }, "latitude must be between -90 and 90"],
    [{ latitude: "0", longitude: "-181" }, "longitude must be between -180 and 180"],
    [{ latitude: "abc", longitude: "0" }, "latitude must be a decimal number of degrees"],
    [{ latitude: "", longitude: "0" }, "latitude is required"],
    [{ latitude: "1e400", longitude: "0" }, "latitude must be a decimal number of degrees"],
    [{ latitude: "Infinity", longitude: "0" }, "latitude must be a decimal number of degrees"],
    [{ latitude: "NaN", longitude: "0" }, "latitude must be a decimal number of degrees"],
    [{ latitude: " 5", longitude: "0" }, "latitude must be a decimal number of degrees"],
    [{ longitude: "0" }, "latitude is required"],
    [{ latitude: "0" }, "longitude is required"],
  ])("refuses %p with 400 invalid_coordinates", (raw, message) => {
    expect(errorOf(raw)).toEqual({ status: 400, code: "invalid_coordinates", message });
  });

  test("refuses a language that is not a language tag", () => {
    expect(errorOf({ latitude: "0", longitude: "0", language: "en;drop" })).toMatchObject({ status: 400, code: "invalid_request" });
  });
});
