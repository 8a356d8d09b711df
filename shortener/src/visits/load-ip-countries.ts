import { readFileSync } from "node:fs";
import { IpCountries } from "./ip-countries.ts";
import { readIpLocationDbCsv } from "./ip-location-db-csv.ts";

/** Where the data comes from: two files of an `@ip-location-db/*-country` package, and its name for logs. */
export interface IpCountryFiles {
  /** `*-ipv4-num.csv` */
  ipv4Num: string;
  /** `*-ipv6.csv` */
  ipv6: string;
  /** `name@version (licence)`, as logged at start. */
  dataset: string;
}

export interface LoadedIpCountries {
  countries: IpCountries;
  dataset: string;
  ranges: number;
  loadMs: number;
}

const dbipPackage = "@ip-location-db/dbip-country";

/** DB-IP's IP to Country Lite (CC BY 4.0), as the npm package the shortener depends on ships it. */
export function dbipCountryFiles(): IpCountryFiles {
  const file = (name: string) => Bun.resolveSync(`${dbipPackage}/${name}`, import.meta.dir);
  const { version } = JSON.parse(readFileSync(file("package.json"), "utf8")) as { version: string };
  return {
    ipv4Num: file("dbip-country-ipv4-num.csv"),
    ipv6: file("dbip-country-ipv6.csv"),
    dataset: `${dbipPackage}@${version} (DB-IP IP to Country Lite, CC BY 4.0)`,
  };
}

/**
 * Reads the IP-to-country data into compact sorted arrays, once at start, so
 * that no request waits for it: about half a second, and 20 MB kept (8 MB of
 * them the arrays); `bun run bench:ip-country`. Throws if a file is missing or not in the format
 * expected: better a failed start than countries silently wrong.
 */
export function loadIpCountries(files: IpCountryFiles = dbipCountryFiles()): LoadedIpCountries {
  const started = performance.now();
  const table = readIpLocationDbCsv({ ipv4Num: readFileSync(files.ipv4Num), ipv6: readFileSync(files.ipv6) });
  const countries = new IpCountries(table);
  return { countries, dataset: files.dataset, ranges: countries.ranges, loadMs: Math.round(performance.now() - started) };
}
