import { formatIp, isIpv4, isPublicAddress, parseIp, type IpAddress } from "@linkgeo/shared";

/** What the data says of an address it has no country for, or that is not a public address. */
export const unknownCountry = "unknown";

/** A record of the country database, as its reader gives it: DB-IP's has the code in `country_code`. */
export interface CountryRecord {
  country_code?: unknown;
}

/** The record for a public address in canonical text (`formatIp`), or null where the data has none. */
export type CountryLookup = (address: string) => CountryRecord | null;

/** The country of a client address, from data opened once (`loadIpCountries`), with no I/O per lookup. */
export class IpCountries {
  /** Each code the data has answered, checked once: about 250 of them. */
  private readonly checkedCodes = new Map<unknown, string>();

  constructor(private readonly lookup: CountryLookup) {}

  /**
   * ISO 3166-1 alpha-2, upper case (`DE`; DB-IP also uses `XK` for Kosovo),
   * or `unknown`: not an IP address (`parseIp`, the parser the request path
   * uses, decides, not the reader's looser one), a private, loopback or
   * other non-public address, or one the data has no country for.
   */
  countryOf(address: string): string {
    const bytes = parseIp(address);
    if (!bytes || !isPublicAddress(bytes)) return unknownCountry;
    const code = this.lookup(lookupText(address, bytes))?.country_code;
    let checked = this.checkedCodes.get(code);
    if (checked === undefined) {
      checked = countryCode(code);
      this.checkedCodes.set(code, checked);
    }
    return checked;
  }
}

/**
 * What the reader is asked for: the canonical text of what `parseIp` read
 * (a dotted quad for IPv4, mapped or not), or the text itself where it is
 * already nothing but hex groups (no zone, no dotted quad), which the reader
 * reads the same and which spares formatting an IPv6 address again.
 */
function lookupText(address: string, bytes: IpAddress): string {
  return isIpv4(bytes) || address.includes("%") || address.includes(".") ? formatIp(bytes) : address;
}

/** Two capital letters, as ISO 3166-1 alpha-2 is; anything else, and ZZ ("unknown" by convention), is unknown. */
function countryCode(code: unknown): string {
  return typeof code === "string" && /^[A-Z]{2}$/.test(code) && code !== "ZZ" ? code : unknownCountry;
}
