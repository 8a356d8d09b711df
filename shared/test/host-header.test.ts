import { describe, expect, test } from "bun:test";
import { parseHostHeader } from "../src/net/host-header.ts";

describe("parseHostHeader", () => {
  test.each([
    ["sho.rt", "sho.rt"],
    ["SHO.rt:8080", "sho.rt:8080"],
    [" sho.rt ", "sho.rt"],
    ["localhost.", "localhost."],
    ["[::1]:80", "[::1]:80"],
    ["10.0.0.7:3001", "10.0.0.7:3001"],
    ["my_project-shortener-1:3001", "my_project-shortener-1:3001"],
    ["xn--bcher-kva.de", "xn--bcher-kva.de"],
  ])("%p is the authority %p", (value, expected) => {
    expect(parseHostHeader(value)).toBe(expected);
  });

  test.each([
    "",
    "   ",
    "x:99999",
    "[::1",
    "a b",
    "@evil.example",
    "u:p@evil.example",
    "evil.example/x",
    "evil.example?x",
    "evil.example#x",
    "a,b",
    "-a.example",
    "a..b",
    "a.example:",
    "é.example",
    `${"a".repeat(256)}.example`,
  ])("%p is not", (value) => {
    expect(parseHostHeader(value)).toBeUndefined();
  });

  test("absent is absent", () => {
    expect(parseHostHeader(null)).toBeUndefined();
    expect(parseHostHeader(undefined)).toBeUndefined();
  });
});
