import { describe, expect, test } from "bun:test";
import { referrerHost } from "../src/visits/referrer-host.ts";

describe("referrerHost", () => {
  test.each([
    ["an absent Referer", null, "direct"],
    ["an empty Referer", "", "direct"],
    ["a blank Referer", "  ", "direct"],
    ["a page", "https://news.ycombinator.com/item?id=1", "news.ycombinator.com"],
    ["an origin, as browsers send across sites", "https://www.google.com/", "www.google.com"],
    ["upper case", "HTTPS://T.CO/AbC", "t.co"],
    ["a port", "http://example.com:8080/a", "example.com"],
    ["credentials", "https://user:secret@example.com/", "example.com"],
    ["a trailing dot", "https://example.com./", "example.com"],
    ["an international name", "https://bücher.example/", "xn--bcher-kva.example"],
    ["an IPv6 address", "http://[2001:DB8::1]:8080/", "[2001:db8::1]"],
    ["an IPv4 address", "http://192.0.2.7/", "192.0.2.7"],
    ["a 64 KiB URL (only its start is read)", `https://example.org/${"a".repeat(64 * 1024)}`, "example.org"],
    ["an app's referrer", "android-app://com.google.android.gm/", "unknown"],
    ["another scheme", "ftp://example.com/file", "unknown"],
    ["a relative URL", "/some/page", "unknown"],
    ["a scheme-relative URL", "//example.com/page", "unknown"],
    ["a bare host", "example.com", "unknown"],
    ["garbage", "%%%%", "unknown"],
    ["a port out of range", "https://example.com:99999/", "unknown"],
    ["a host of dots", "http://.../", "unknown"],
    ["a host named direct", "http://direct/", "unknown"],
    ["a host named unknown", "https://unknown./", "unknown"],
    ["a host of 253 characters, as long as DNS allows", `https://${`${"a".repeat(62)}.`.repeat(4)}x/`, `${`${"a".repeat(62)}.`.repeat(4)}x`],
    ["a host of 254 characters", `https://${`${"a".repeat(62)}.`.repeat(4)}xy/`, "unknown"],
  ])("%s: %p is %p", (_, referer, host) => {
    expect(referrerHost(referer)).toBe(host);
  });
});
