import { describe, expect, test } from "bun:test";
import { SessionCookie } from "../src/auth/session-cookie.ts";

const real = "r".repeat(43);
const overHttp = new SessionCookie(false);
const overHttps = new SessionCookie(true);

describe("SessionCookie.idsFrom over plain HTTP", () => {
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
    expect(overHttp.idsFrom(header)).toEqual(expected);
  });

  test("200 values are all read, in order", () => {
    const values = Array.from({ length: 200 }, (_, i) => `v${i}`);
    expect(overHttp.idsFrom(values.map((value) => `linkgeo_admin=${value}`).join("; "))).toEqual(values);
  });
});

describe("SessionCookie.idsFrom over HTTPS", () => {
  test("reads only __Host-linkgeo_admin, every value of it: a plain linkgeo_admin is any page's", () => {
    expect(overHttps.idsFrom(`linkgeo_admin=junk; __Host-linkgeo_admin=${real}; linkgeo_admin=${"A".repeat(43)}; __Host-linkgeo_admin=x`)).toEqual([real, "x"]);
    expect(overHttps.idsFrom(`linkgeo_admin=${real}`)).toEqual([]);
  });
});

describe("SessionCookie.set", () => {
  test("over plain HTTP: linkgeo_admin, HttpOnly, SameSite=Strict, Path=/", () => {
    expect(overHttp.set(real, 43200)).toBe(`linkgeo_admin=${real}; HttpOnly; SameSite=Strict; Path=/; Max-Age=43200`);
  });

  test("over HTTPS: __Host-linkgeo_admin, and Secure, as the prefix requires", () => {
    expect(overHttps.set(real, 43200)).toBe(`__Host-linkgeo_admin=${real}; HttpOnly; SameSite=Strict; Path=/; Max-Age=43200; Secure`);
  });
});

describe("SessionCookie.cleared", () => {
  test("clears ours at Path=/ and at every path the sign-out route lies under", () => {
    expect(overHttp.cleared("/admin/session")).toEqual([
      "linkgeo_admin=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict",
      "linkgeo_admin=; Max-Age=0; Path=/admin; HttpOnly; SameSite=Strict",
      "linkgeo_admin=; Max-Age=0; Path=/admin/; HttpOnly; SameSite=Strict",
      "linkgeo_admin=; Max-Age=0; Path=/admin/session; HttpOnly; SameSite=Strict",
    ]);
  });

  test("over HTTPS, only ours at Path=/: no __Host- cookie can be anywhere else", () => {
    expect(overHttps.cleared("/admin/session")).toEqual(["__Host-linkgeo_admin=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict; Secure"]);
  });

  test("at the root, only ours", () => {
    expect(overHttp.cleared("/")).toEqual(["linkgeo_admin=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict"]);
  });
});
