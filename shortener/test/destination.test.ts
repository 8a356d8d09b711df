import { describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { MemoryLinkCache } from "../src/cache/memory-link-cache.ts";
import { decodeDestination, encodeDestination, plainDestination, type Destination } from "../src/links/destination.ts";
import { startTestShortener } from "./support/test-shortener.ts";

const full: Destination = {
  longUrl: "https://example.com/a",
  redirectStatus: 308,
  forwardQuery: true,
  rules: [{ when: { device: "ios", country: "DE" }, url: "https://example.com/ios" }],
  expiresAt: new Date("2031-01-01T00:00:00.000Z"),
  maxVisits: 10,
  expiredUrl: "https://example.com/over",
  passwordProtected: true,
  hold: null,
};

describe("a cache entry of a destination", () => {
  test("reads back as it was written; a bare URL (an entry from before link options) is a link without options", () => {
    expect(decodeDestination(encodeDestination(full))).toEqual(full);
    expect(decodeDestination(encodeDestination(plainDestination("https://example.com/b")))).toEqual(plainDestination("https://example.com/b"));
    expect(decodeDestination("https://example.com/old")).toEqual(plainDestination("https://example.com/old"));
  });

  test.each([
    ["not JSON", "{oops"],
    ["an array", "[1]"],
    ["null", "null"],
    ["a field missing", JSON.stringify({ longUrl: "https://example.com/x", maxVisits: null })],
    ["passwordProtected not a boolean", encodeDestination(full).replace('"passwordProtected":true', '"passwordProtected":"no"')],
    ["rules not a list", encodeDestination(full).replace(/"rules":\[.*?\]\]?,/, '"rules":{},')],
    ["a rule without its url", encodeDestination({ ...full, rules: [] }).replace('"rules":[]', '"rules":[{"when":{}}]')],
    ["an unknown status", encodeDestination(full).replace('"redirectStatus":308', '"redirectStatus":200')],
    ["expiresAt a string", encodeDestination(full).replace(/"expiresAt":\d+/, '"expiresAt":"soon"')],
  ])("%s is a miss, never a destination", (_, entry) => {
    expect(decodeDestination(entry)).toBeUndefined();
  });

  test("a damaged entry in the cache sends HEAD to the database instead of failing it", async () => {
    const cache = new MemoryLinkCache();
    await using api = await startTestShortener({ cache });
    const link = await api.createLink("https://example.com/damaged");
    await cache.set(link.short_url, JSON.stringify({ longUrl: "https://example.com/elsewhere", maxVisits: null }));
    const head = await api.request("HEAD", `/${link.short_url}/`);
    expect([head.status, head.headers.get("location")]).toEqual([302, "https://example.com/damaged"]);
    expect((await readJson(await api.request("GET", `/shorten/${link.short_url}/`))).long_url).toBe("https://example.com/damaged");
  });
});
