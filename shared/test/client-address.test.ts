import { describe, expect, test } from "bun:test";
import { clientAddress, clientOf, unknownClient } from "../src/net/client-address.ts";
import { formatIp, parseIp } from "../src/net/ip-address.ts";
import { parseIpRange, parseIpRangeList } from "../src/net/ip-range.ts";

// The gateway's default: the machine itself. Plus a load balancer subnet and an IPv6 proxy range.
const trusted = parseIpRangeList("127.0.0.1/8, ::1/128, 10.0.0.0/8, 2001:db8:cafe::/48");

describe("clientAddress", () => {
  test.each([
    // [what, socket peer, X-Forwarded-For, client]
    ["a direct client without the header is its socket address", "203.0.113.7", null, "203.0.113.7"],
    ["a direct untrusted client's forged header is ignored", "203.0.113.7", "198.51.100.1", "203.0.113.7"],
    ["a forged chain from an untrusted client is ignored", "203.0.113.7", "10.0.0.1, 127.0.0.1", "203.0.113.7"],
    ["a trusted proxy's entry names the client", "10.0.0.5", "198.51.100.1", "198.51.100.1"],
    ["only the entry the trusted proxy appended counts, not what the client wrote before it", "10.0.0.5", "6.6.6.6, 198.51.100.1", "198.51.100.1"],
    ["two trusted proxies: the walk passes the inner one", "127.0.0.1", "198.51.100.1, 10.0.0.9", "198.51.100.1"],
    ["two trusted proxies with a forged entry left of the client", "127.0.0.1", "1.1.1.1, 198.51.100.1, 10.0.0.9", "198.51.100.1"],
    ["a chain of only trusted hops ends at the leftmost", "127.0.0.1", "10.0.0.1, 10.0.0.2", "10.0.0.1"],
    ["a trusted proxy with an empty header is the client", "10.0.0.5", "", "10.0.0.5"],
    ["entries are trimmed", "10.0.0.5", "  198.51.100.1  ", "198.51.100.1"],
    ["several headers joined by the runtime read as one list", "127.0.0.1", "6.6.6.6, 198.51.100.1,10.0.0.9", "198.51.100.1"],
    ["an entry with a port", "10.0.0.5", "198.51.100.1:4711", "198.51.100.1"],
    ["a bracketed IPv6 entry with a port", "10.0.0.5", "[2001:db8::1]:443", "2001:db8::1"],
    ["a bracketed IPv6 entry without a port", "10.0.0.5", "[2001:db8::1]", "2001:db8::1"],
    // Garbage stops the walk at the last hop that was an address.
    ["garbage appended by a trusted proxy leaves the proxy", "10.0.0.5", "not-an-ip", "10.0.0.5"],
    ["garbage behind a trusted hop stops there", "127.0.0.1", "garbage, 10.0.0.9", "10.0.0.9"],
    ["garbage left of the client is never read", "10.0.0.5", "garbage, 198.51.100.1", "198.51.100.1"],
    ["an empty entry stops the walk", "10.0.0.5", "198.51.100.1, ", "10.0.0.5"],
    ["'unknown' (squid) is not an address", "10.0.0.5", "unknown", "10.0.0.5"],
    ["an IPv4 address with an out-of-range octet", "10.0.0.5", "256.1.1.1", "10.0.0.5"],
    ["an IPv4 address with a leading zero (octal to some parsers)", "10.0.0.5", "010.1.1.1", "10.0.0.5"],
    ["a CIDR range is not an address", "10.0.0.5", "198.51.100.0/24", "10.0.0.5"],
    ["a port without brackets on IPv6 is not an address", "10.0.0.5", "2001:db8::1:443:1:1:1:1", "10.0.0.5"],
    // IPv6.
    ["an IPv6 trusted proxy", "::1", "2001:db8::7", "2001:db8::7"],
    ["an IPv6 proxy inside a trusted /48", "2001:db8:cafe:1::2", "198.51.100.1", "198.51.100.1"],
    ["an IPv6 address just outside the trusted /48 is not trusted", "2001:db8:caff::2", "198.51.100.1", "2001:db8:caff::2"],
    ["an IPv6 client is canonicalised", "10.0.0.5", "2001:0DB8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
    // IPv4-mapped IPv6 is IPv4, on the socket and in the header.
    ["a dual-stack socket's IPv4-mapped loopback is trusted by 127.0.0.1/8", "::ffff:127.0.0.1", "198.51.100.1", "198.51.100.1"],
    ["an IPv4-mapped untrusted socket address reads as IPv4", "::ffff:203.0.113.7", "198.51.100.1", "203.0.113.7"],
    ["an IPv4-mapped entry reads as IPv4", "10.0.0.5", "::ffff:198.51.100.1", "198.51.100.1"],
    ["an IPv4-mapped trusted entry in the chain is passed", "127.0.0.1", "198.51.100.1, ::ffff:10.0.0.9", "198.51.100.1"],
    // Without a known socket peer nothing can be believed.
    ["no socket address", undefined, "198.51.100.1", unknownClient],
    ["an unparseable socket address", "somewhere", "198.51.100.1", unknownClient],
  ] as Array<[string, string | undefined, string | null, string]>)("%s", (_, socket, forwardedFor, expected) => {
    expect(clientAddress(socket, forwardedFor, trusted)).toBe(expected);
  });

  test("trusts nothing with an empty list", () => {
    expect(clientAddress("127.0.0.1", "198.51.100.1", [])).toBe("127.0.0.1");
  });

  test("a single trusted address without a prefix length is that address only", () => {
    expect(clientAddress("192.0.2.10", "198.51.100.1", parseIpRangeList("192.0.2.10"))).toBe("198.51.100.1");
    expect(clientAddress("192.0.2.11", "198.51.100.1", parseIpRangeList("192.0.2.10"))).toBe("192.0.2.11");
  });

  test("an IPv4-mapped IPv6 range trusts the IPv4 addresses it covers", () => {
    expect(clientAddress("192.0.2.10", "198.51.100.1", parseIpRangeList("::ffff:192.0.2.0/120"))).toBe("198.51.100.1");
    expect(clientAddress("192.0.3.10", "198.51.100.1", parseIpRangeList("::ffff:192.0.2.0/120"))).toBe("192.0.3.10");
  });

  test("0.0.0.0/0 trusts every IPv4 hop, so the leftmost entry wins", () => {
    expect(clientAddress("203.0.113.7", "198.51.100.1, 192.0.2.1", parseIpRangeList("0.0.0.0/0"))).toBe("198.51.100.1");
  });

  test("says whether the socket's peer itself is a trusted proxy", () => {
    expect(clientOf("10.0.0.5", "198.51.100.1", trusted)).toEqual({ address: "198.51.100.1", viaTrustedProxy: true });
    expect(clientOf("203.0.113.7", "198.51.100.1", trusted)).toEqual({ address: "203.0.113.7", viaTrustedProxy: false });
    expect(clientOf(undefined, "198.51.100.1", trusted)).toEqual({ address: unknownClient, viaTrustedProxy: false });
  });

  test.each(["999.0.0.1", "10.0.0.0/33", "10.0.0.0/8, everyone", "::1/129", "1.2.3.4/8/8"])("a list with %p is refused, naming the bad entry", (raw) => {
    expect(() => parseIpRangeList(raw)).toThrow(/^has ".*", which is not an IP address or CIDR range$/);
  });

  test("an empty list trusts nothing", () => {
    expect(parseIpRangeList(" , ")).toEqual([]);
  });
});

describe("IP addresses", () => {
  test.each([
    ["1.2.3.4", "1.2.3.4"],
    ["0.0.0.0", "0.0.0.0"],
    ["255.255.255.255", "255.255.255.255"],
    ["10.0.0.1", "10.0.0.1"],
    ["100.200.250.199", "100.200.250.199"],
    ["::", "::"],
    ["::1", "::1"],
    ["1::", "1::"],
    ["2001:db8::", "2001:db8::"],
    ["2001:DB8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"],
    ["1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"],
    ["fe80::1%eth0", "fe80::1"],
    ["::ffff:1.2.3.4", "1.2.3.4"],
    ["::FFFF:0102:0304", "1.2.3.4"],
    ["64:ff9b::192.0.2.33", "64:ff9b::c000:221"],
    ["::1.2.3.4", "::102:304"],
    ["1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"],
    ["0001:0:0:0:0:0:0:0001", "1::1"],
    ["1:0:0:2:0:0:0:3", "1:0:0:2::3"],
    ["ABCD:EF01::", "abcd:ef01::"],
  ])("%s reads as %s", (text, canonical) => {
    expect(formatIp(parseIp(text)!)).toBe(canonical);
  });

  test.each([
    "",
    "1.2.3",
    "1.2.3.4.5",
    "1.2.3.256",
    "01.2.3.4",
    "1.2.3.-4",
    " 1.2.3.4",
    "1.2.3.4 ",
    "1.2.3.4\n",
    "1.2.3.4.",
    ".1.2.3",
    "1..2.3",
    "1.2.3.04",
    "0.0.0.00",
    "1.2.3.+4",
    "1e0.2.3.4",
    "1.2.3.4/8",
    "255.255.255.2550",
    "1.2.3.1000",
    "\u0661.\u0662.\u0663.\u0664",
    "a.b.c.d",
    ":::",
    "1:::2",
    "1::2::3",
    ":1:2:3:4:5:6:7",
    "1:2:3:4:5:6:7",
    "1:2:3:4:5:6:7:8:9",
    "1::2:3:4:5:6:7:8",
    "12345::",
    "g::1",
    "1.2.3.4::",
    "::1.2.3.4:1",
    "1:2:3:4:5:6:7:1.2.3.4",
    "1:",
    "1::2:",
    ":",
    "::ffff.1.2.3",
    "::ffff:1.2.3",
    "1:2:3:4:5:6::1.2.3.4",
    "::1.2.3.4.5",
    "fe80::1%",
    "1:2:3:4:5:6:7:8%",
    "::1 ",
    "::-1",
    "::0x1",
  ])("%p is not an address", (text) => {
    expect(parseIp(text)).toBeUndefined();
  });

  test.each(["10.0.0.0/8", "10.1.2.3/8", "0.0.0.0/0", "192.0.2.1", "::/0", "2001:db8::/32", "::1/128", "::ffff:10.0.0.0/104"])("%s is a range", (text) => {
    expect(() => parseIpRange(text)).not.toThrow();
  });

  test.each(["10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/8/8", "10.0.0.0/-1", "host.example", "", "10.0.0/8"])("%p is not a range", (text) => {
    expect(() => parseIpRange(text)).toThrow();
  });
});
