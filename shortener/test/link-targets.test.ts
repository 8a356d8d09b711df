import { describe, expect, test } from "bun:test";
import { LinkTargets, parseDomainList, type LinkTargetRules } from "../src/links/link-targets.ts";

const here = "long_url must not point at this service";
const requestHosts = ["sho.rt", "gateway:8080"];

function refusal(longUrl: string, rules: Partial<LinkTargetRules> = {}): string | undefined {
  const targets = new LinkTargets({ blockPrivate: false, blockedDomains: [], ownAddresses: ["10.0.0.7", "fd00::7"], ...rules });
  return targets.refusal(new URL(longUrl), requestHosts);
}

describe("LinkTargets", () => {
  test.each([
    "http://localhost:8080/x/",
    "http://LOCALHOST/x",
    "http://localhost./x",
    "http://localhost../x",
    "http://app.localhost/x",
    "http://localhost.localdomain/",
    "http://0.0.0.0:8080/",
    "http://0/",
    "http://127.0.0.1/",
    "http://127.0.0.2:8080/",
    "http://127.1/",
    "http://0x7f.1/",
    "http://2130706433/",
    "http://017700000001/",
    "http://[::1]:8080/",
    "http://[::]/",
    "http://[::ffff:127.0.0.1]:8080/",
    "http://[0:0:0:0:0:ffff:7f00:1]/",
    // The public origin in any spelling, any port.
    "https://sho.rt/x",
    "https://SHO.RT/x",
    "https://sho.rt./x",
    "https://sho.rt:443/x",
    "http://sho.rt:8080/x",
    "http://gateway/x",
    // This machine's own addresses (a replica as the gateway reaches it).
    "http://10.0.0.7:3001/x",
    "http://[fd00::7]:3001/x",
    "http://[::ffff:10.0.0.7]/x",
  ])("%s is refused as this service", (longUrl) => {
    expect(refusal(longUrl)).toBe(here);
  });

  test.each([
    "https://example.com/",
    "https://sho.rt.example.com/",
    "https://localhost.example.com/",
    "http://10.0.0.8/",
    "http://192.168.1.1/",
    "http://printer.local/",
    "http://intranet/",
    "http://[fe80::1]/",
  ])("%s is allowed by default", (longUrl) => {
    expect(refusal(longUrl)).toBeUndefined();
  });

  test.each([
    "http://10.0.0.8/",
    "http://172.16.5.4/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fc00::1]/",
    "http://[fe80::1]/",
    "http://[::ffff:192.168.0.1]/",
    "http://0xc0.0xa8.0.1/",
  ])("%s is refused with BLOCK_PRIVATE_TARGETS", (longUrl) => {
    expect(refusal(longUrl, { blockPrivate: true })).toBe("long_url must not point at a private network address");
  });

  test.each(["http://intranet/", "http://printer.local/", "http://db.internal/", "http://nas.home.arpa/", "http://router.lan./"])(
    "%s is refused as a private name with BLOCK_PRIVATE_TARGETS",
    (longUrl) => {
      expect(refusal(longUrl, { blockPrivate: true })).toBe("long_url must not point at a name of a private network");
    },
  );

  test("BLOCK_PRIVATE_TARGETS leaves public addresses and names alone", () => {
    for (const longUrl of ["https://example.com/", "http://8.8.8.8/", "http://172.32.0.1/", "http://[2001:db8::1]/"])
      expect(refusal(longUrl, { blockPrivate: true })).toBeUndefined();
  });

  test("a blocked domain refuses itself and every subdomain in any spelling, and nothing else", () => {
    const blockedDomains = parseDomainList("Evil.Example, bücher.example.");
    for (const longUrl of [
      "https://evil.example/",
      "https://a.b.EVIL.example./x",
      "https://evil.example:8443/",
      "https://xn--bcher-kva.example/",
      "https://shop.bücher.example/",
    ]) {
      expect(refusal(longUrl, { blockedDomains })).toBe("long_url points at a blocked domain");
    }
    for (const longUrl of ["https://notevil.example/", "https://evil.example.org/", "https://example/"])
      expect(refusal(longUrl, { blockedDomains })).toBeUndefined();
  });
});

describe("parseDomainList", () => {
  test("normalises names as URLs do", () => {
    expect(parseDomainList(" Evil.Example , bücher.example., ,x.org")).toEqual(["evil.example", "xn--bcher-kva.example", "x.org"]);
  });

  test.each(["evil.example/path", "evil.example:80", "10.0.0.1", "a b", "user@evil.example"])("refuses %p", (raw) => {
    expect(() => parseDomainList(raw)).toThrow("which is not a domain name");
  });
});
