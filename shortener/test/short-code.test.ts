import { describe, expect, test } from "bun:test";
import { shortCodeShape } from "@linkgeo/shared";
import { generateCode, generatedCodeLength } from "../src/links/short-code.ts";

describe("a generated code", () => {
  // 10,000 codes hold 70,000 characters: each of the five look-alikes would appear about 1,100 times were it allowed.
  const codes = Array.from({ length: 10_000 }, generateCode);

  test("has none of the characters people take for one another: 0 and O, 1, l and I", () => {
    expect(codes.filter((code) => /[0O1lI]/.test(code))).toEqual([]);
  });

  test("is 7 characters a short code may have, and the other 57 all appear", () => {
    expect(codes.every((code) => code.length === generatedCodeLength && shortCodeShape.test(code))).toBe(true);
    expect(new Set(codes.join("")).size).toBe(57);
  });
});
