import { describe, expect, test } from "bun:test";
import { utmValuesOf, withUtmValues, type UtmValues } from "../../src/components/utm-builder/utm-url.ts";

const tags = (values: Partial<UtmValues>): UtmValues => ({ source: "", medium: "", campaign: "", term: "", content: "", ...values });
const spring = tags({ source: "newsletter", medium: "email", campaign: "spring sale" });

describe("UTM tags on the URL being shortened", () => {
  test("are added after the URL's own query and before its fragment, the query kept byte for byte", () => {
    expect(withUtmValues("https://example.com/sale?q=a%20b&flag&x=1#offers", spring)).toBe(
      "https://example.com/sale?q=a%20b&flag&x=1&utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale#offers",
    );
  });

  test("an address typed without its scheme stays without it", () => {
    expect(withUtmValues("example.com/sale", spring)).toBe("example.com/sale?utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale");
  });

  test("replace the URL's own, however spelled, rather than repeat them; an empty one leaves", () => {
    expect(withUtmValues("https://example.com/?utm_source=old&x=1&utm%5Fterm=shoes&utm_content=a", tags({ ...spring, content: "banner" }))).toBe(
      "https://example.com/?x=1&utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale&utm_content=banner",
    );
  });

  test("term and content are added when given, in the usual order, values encoded", () => {
    expect(withUtmValues("https://example.com/", tags({ content: "a&b=c", term: "running shoes", source: "x", medium: "y", campaign: "z" }))).toBe(
      "https://example.com/?utm_source=x&utm_medium=y&utm_campaign=z&utm_term=running%20shoes&utm_content=a%26b%3Dc",
    );
  });

  test("are read from a URL that has them, empty for those it lacks; no web address has none", () => {
    expect(utmValuesOf("example.com/?utm_source=mail&utm_campaign=spring+sale")).toEqual(tags({ source: "mail", campaign: "spring sale" }));
    expect(utmValuesOf("notanaddress")).toBeUndefined();
    expect(withUtmValues("notanaddress", spring)).toBeUndefined();
    expect(withUtmValues("javascript:alert(1)", spring)).toBeUndefined();
  });
});
