import { describe, expect, test } from "bun:test";
import { IpCountries } from "../src/visits/ip-countries.ts";
import { readIpLocationDbCsv } from "../src/visits/ip-location-db-csv.ts";
import { loadIpCountries } from "../src/visits/load-ip-countries.ts";

const csv = (lines: string[]) => new TextEncoder().encode(`${lines.join("\n")}\n`);

describe("IpCountries on the DB-IP data the shortener ships", () => {
  const { countries, dataset, ranges } = loadIpCountries();

  test("names the package, its version and licence, and holds several hundred thousand ranges", () => {
    expect(dataset).toMatch(/^@ip-location-db\/dbip-country@\d+\.\d+\.\d+ \(DB-IP IP to Country Lite, CC BY 4\.0\)$/);
    expect(ranges).toBeGreaterThan(500_000);
  });

  // Networks of universities, research networks and registries: each whole
  // prefix maps to one country in DB-IP (checked over the prefix, not only
  // at this address), and GeoLite2 and the RIR data agree with it.
  test.each([
    ["128.32.1.1", "US", "UC Berkeley, 128.32.0.0/16"],
    ["131.111.8.46", "GB", "University of Cambridge, 131.111.0.0/16"],
    ["129.132.19.216", "CH", "ETH Zürich, 129.132.0.0/16"],
    ["134.157.1.1", "FR", "Sorbonne Université (Jussieu), 134.157.0.0/16"],
    ["141.20.5.188", "DE", "Humboldt-Universität zu Berlin, 141.20.0.0/16"],
    ["130.237.28.40", "SE", "KTH Stockholm, 130.237.0.0/16"],
    ["133.11.0.1", "JP", "University of Tokyo, 133.11.0.0/16"],
    ["132.68.1.1", "IL", "Technion, 132.68.0.0/16"],
    ["200.160.2.3", "BR", "NIC.br (registro.br), 200.160.0.0/20"],
    ["193.0.6.139", "NL", "RIPE NCC (www.ripe.net), 193.0.0.0/21"],
    ["::ffff:131.111.8.46", "GB", "Cambridge again, as a dual-stack socket reports an IPv4 peer"],
    ["2001:630:212::1", "GB", "JANET, the UK research network, 2001:630::/32"],
    ["2001:638:700::1", "DE", "DFN, the German research network, 2001:638::/32"],
    ["2001:660:3301::1", "FR", "RENATER, the French research network, 2001:660::/32"],
    ["2001:620:0:1b::b", "CH", "SWITCH, the Swiss research network, 2001:620::/32"],
    ["2001:718:1:1::1", "CZ", "CESNET, the Czech research network, 2001:718::/32"],
    ["2001:da8:8000::1", "CN", "CERNET, the Chinese research network, 2001:da8::/32"],
    ["2001:200:dff:fff1:216:3eff:feb1:44d7", "JP", "WIDE project (www.wide.ad.jp), 2001:200::/32"],
    ["2001:12ff:0:4::22", "BR", "NIC.br, 2001:12ff::/32"],
    ["2001:67c:2e8:22::c100:68b", "NL", "RIPE NCC (www.ripe.net), 2001:67c:2e8::/48"],
  ])("%s is %s (%s)", (address, country) => {
    expect(countries.countryOf(address)).toBe(country);
  });

  test.each([
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.10", "private"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["127.0.0.1", "loopback"],
    ["169.254.1.1", "link-local"],
    ["192.0.2.1", "documentation"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["::1", "IPv6 loopback"],
    ["::", "IPv6 unspecified"],
    ["fe80::1%eth0", "IPv6 link-local with a zone"],
    ["fd12:3456::1", "IPv6 unique local"],
    ["2001:db8::1", "IPv6 documentation"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo, which DB-IP gives a country"],
    ["::ffff:10.0.0.1", "private, IPv4-mapped"],
    ["unknown", "no socket peer (what clientOf answers then)"],
    ["", "empty"],
    ["not an address", "garbage"],
    ["1.2.3", "three octets"],
    ["1.2.3.4:80", "with a port"],
    ["010.1.1.1", "a leading zero"],
    ["2001:630::1::2", "two ::"],
  ])("%p is unknown (%s)", (address) => {
    expect(countries.countryOf(address)).toBe("unknown");
  });
});

describe("readIpLocationDbCsv", () => {
  const table = readIpLocationDbCsv({
    ipv4Num: csv([
      "16777216,16777471,AU", // 1.0.0.0–1.0.0.255
      "16777472,16777727,CN", // 1.0.1.0–1.0.1.255
      "16777728,16778239,CN", // 1.0.2.0–1.0.3.255: merged with the range before
      // 1.0.4.0–1.0.7.255 missing: a gap
      "16779264,16781311,ZZ", // 1.0.8.0–1.0.15.255: ZZ is "unknown" by convention
      "16781312,16785407,jp", // 1.0.16.0–1.0.31.255: not an upper-case code
      "16785408,16793599,JP", // 1.0.32.0–1.0.63.255
    ]),
    ipv6: csv([
      "2001:200::,2001:200:ffff:ffff:ffff:ffff:ffff:ffff,JP",
      "2001:218::,2001:218::ffff,US", // narrower than a /64: all 128 bits count
      "2001:218::1:0,2001:218:0:0:0:0:ffff:ffff,AU",
      "2a00:1450:4001::,2a00:1450:4001:ffff:ffff:ffff:ffff:ffff,DE",
    ]),
  });
  const countries = new IpCountries(table);

  test("keeps one start per range and fills gaps with country 0, merging neighbours of one country", () => {
    expect(table).toEqual({
      countries: ["unknown", "AU", "CN", "JP", "US", "DE"],
      ipv4: {
        wordsPerAddress: 1,
        starts: Uint32Array.from([0, 16777216, 16777472, 16778240, 16785408, 16793600]),
        countries: Uint8Array.from([0, 1, 2, 0, 3, 0]),
      },
      ipv6: {
        wordsPerAddress: 4,
        starts: Uint32Array.from([
          0,
          0,
          0,
          0, // gap up to the first range
          0x20010200,
          0,
          0,
          0, // 2001:200::
          0x20010201,
          0,
          0,
          0, // gap
          0x20010218,
          0,
          0,
          0, // 2001:218::
          0x20010218,
          0,
          0,
          0x10000, // 2001:218::1:0
          0x20010218,
          0,
          1,
          0, // gap from 2001:218::1:0:0
          0x2a001450,
          0x40010000,
          0,
          0, // 2a00:1450:4001::
          0x2a001450,
          0x40020000,
          0,
          0, // gap to the end
        ]),
        countries: Uint8Array.from([0, 3, 0, 4, 1, 0, 5, 0]),
      },
    });
  });

  test.each([
    ["1.0.0.0", "AU"],
    ["1.0.0.255", "AU"],
    ["1.0.1.0", "CN"],
    ["1.0.3.255", "CN"],
    ["1.0.4.0", "unknown"],
    ["1.0.7.255", "unknown"],
    ["1.0.8.0", "unknown"],
    ["1.0.16.0", "unknown"],
    ["1.0.32.0", "JP"],
    ["1.0.63.255", "JP"],
    ["1.0.64.0", "unknown"],
    ["2001:200::", "JP"],
    ["2001:200:ffff:ffff:ffff:ffff:ffff:ffff", "JP"],
    ["2001:201::", "unknown"],
    ["2001:218::", "US"],
    ["2001:218::ffff", "US"],
    ["2001:218::1:0", "AU"],
    ["2001:218::ffff:ffff", "AU"],
    ["2001:218::1:0:0", "unknown"],
    ["2a00:1450:4001:81c::200e", "DE"],
    ["2a00:1450:4002::1", "unknown"],
  ])("%s is %s", (address, country) => {
    expect(countries.countryOf(address)).toBe(country);
  });

  test.each([
    ["ranges out of order", ["16777472,16777727,CN", "16777216,16777471,AU"], [], "IPv4 line 2: ranges out of order or overlapping"],
    ["overlapping ranges", ["16777216,16777471,AU", "16777400,16777727,CN"], [], "IPv4 line 2: ranges out of order or overlapping"],
    ["a range that ends before it starts", ["16777471,16777216,AU"], [], "IPv4 line 1: a range ends before it starts"],
    ["a line of two fields", ["16777216,AU"], [], "IPv4 line 1: not three comma-separated fields"],
    ["an address over 32 bits", ["4294967296,4294967297,AU"], [], "IPv4 line 1: not two decimal addresses"],
    ["text where IPv4 numbers belong", ["1.0.0.0,1.0.0.255,AU"], [], "IPv4 line 1: not two decimal addresses"],
    ["an IPv6 address with two ::", [], ["2001::1::,2001:0:0:0:0:0:0:ffff,US"], "IPv6 line 1: not two IPv6 addresses"],
    ["an IPv6 address of nine groups", [], ["1:2:3:4:5:6:7:8:9,2001::,US"], "IPv6 line 1: not two IPv6 addresses"],
    ["an IPv6 group of five digits", [], ["2001:12345::,2001:12345::1,US"], "IPv6 line 1: not two IPv6 addresses"],
  ])("refuses %s", (_, ipv4Lines, ipv6Lines, message) => {
    expect(() => readIpLocationDbCsv({ ipv4Num: csv(ipv4Lines), ipv6: csv(ipv6Lines) })).toThrow(message);
  });

  test("reads IPv6 addresses in every spelling: leading, inner and trailing ::, all eight groups, upper case", () => {
    const spellings = readIpLocationDbCsv({
      ipv4Num: new Uint8Array(0),
      ipv6: csv(["::,::ff,AU", "0:0:0:0:0:0:0:100,::1FF,CN", "1::,1:0:0:0:0:0:ffff:ffff,JP", "1:2:3:4:5:6:7:8,1:2:3:4:5:6:7:8,US"]),
    });
    expect(spellings.ipv6).toEqual({
      wordsPerAddress: 4,
      starts: Uint32Array.from([
        0, 0, 0, 0, 0, 0, 0, 0x100, 0, 0, 0, 0x200, 0x10000, 0, 0, 0, 0x10000, 0, 1, 0, 0x10002, 0x30004, 0x50006, 0x70008, 0x10002, 0x30004, 0x50006, 0x70009,
      ]),
      countries: Uint8Array.from([1, 2, 0, 3, 0, 4, 0]),
    });
  });

  test("reads Windows line ends and a last line without one", () => {
    const crlf = readIpLocationDbCsv({
      ipv4Num: new TextEncoder().encode("16777216,16777471,AU\r\n16777472,16777727,CN"),
      ipv6: new Uint8Array(0),
    });
    expect(crlf.ipv4).toEqual({ wordsPerAddress: 1, starts: Uint32Array.from([0, 16777216, 16777472, 16777728]), countries: Uint8Array.from([0, 1, 2, 0]) });
  });
});
