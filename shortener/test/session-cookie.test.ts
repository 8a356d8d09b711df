import { describe, expect, test } from "bun:test";
import { clearedSessionCookies, sessionIdsFrom } from "../src/auth/session-cookie.ts";

const real = "r".repeat(43);

describe("sessionIdsFrom", () => {
  // [what, Cookie header, the values read]
  const cases: Array<[string, string | null, string[]]> = [
    ["no header", null, []],
    ["an empty header", "", []],
    ["other cookies only", "theme=dark; lang=en", []],
    ["one value", `linkgeo_admin=${real}`, [real]],
    ["one value among others", `theme=dark; linkgeo_admin=${real}; lang=en`, [real]],
    ["several values, in the order sent", `linkgeo_admin=first; linkgeo_admin=second; linkgeo_admin=third`, ["first", "second", "third"]],
    ["junk first (tossed on /admin), the real one last", `linkgeo_admin=junk; linkgeo_admin=${real}`, ["junk", real]],
    ["junk last", `linkgeo_admin=${real}; linkgeo_admin=junk`, [real, "junk"]],
    ["a quoted value", `linkgeo_admin="${real}"`, [real]],
    ["a quoted junk value before the real one", `linkgeo_admin="junk"; linkgeo_admin=${real}`, ["junk", real]],
    ["a lone double quote is a value, not quotes", `linkgeo_admin="`, ['"']],
    ["empty quotes are empty", `linkgeo_admin=""; linkgeo_admin=${real}`, [real]],
    ["an empty value", "linkgeo_admin=", []],
    ["an empty value before the real one", `linkgeo_admin=; linkgeo_admin=${real}`, [real]],
    ["spaces around names and values", ` linkgeo_admin = ${real} ;linkgeo_admin=x`, [real, "x"]],
    ["no spaces after the separators", `a=1;linkgeo_admin=${real};b=2`, [real]],
    ["a name without a value", "linkgeo_admin; theme=dark", []],
    ["a name that only contains ours", `xlinkgeo_admin=a; linkgeo_adminx=b; LINKGEO_ADMIN=c`, []],
    ["a value with an equals sign", "linkgeo_admin=a=b", ["a=b"]],
    ["percent signs, not decoded", "linkgeo_admin=%E0%A4%A", ["%E0%A4%A"]],
    ["only separators", "=;=;;==", []],
  ];

  test.each(cases)("%s", (_, header, expected) => {
    expect(sessionIdsFrom(header)).toEqual(expected);
  });

  test("200 values are all read, in order", () => {
    const values = Array.from({ length: 200 }, (_, i) => `v${i}`);
    expect(sessionIdsFrom(values.map((value) => `linkgeo_admin=${value}`).join("; "))).toEqual(values);
  });
});

describe("clearedSessionCookies", () => {
  test("clears ours at Path=/ and at every path the sign-out route lies under", () => {
    expect(clearedSessionCookies("/admin/session", false)).toEqual([
      "linkgeo_admin=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict",
      "linkgeo_admin=; Max-Age=0; Path=/admin; HttpOnly; SameSite=Strict",
      "linkgeo_admin=; Max-Age=0; Path=/admin/; HttpOnly; SameSite=Strict",
      "linkgeo_admin=; Max-Age=0; Path=/admin/session; HttpOnly; SameSite=Strict",
    ]);
  });

  test("marks each Secure in production", () => {
    expect(clearedSessionCookies("/admin/session", true).every((cookie) => cookie.endsWith("; Secure"))).toBe(true);
  });

  test("at the root, only ours", () => {
    expect(clearedSessionCookies("/", false)).toEqual(["linkgeo_admin=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict"]);
  });
});
