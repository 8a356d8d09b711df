import { isIpv4, isPublicAddress, parseIp, type IpAddress } from "@linkgeo/shared";
import { unknownCountry, type IpCountryTable, type RangeList } from "./ip-country-table.ts";

export { unknownCountry } from "./ip-country-table.ts";

/** The country of a client address, from a table loaded once (`loadIpCountries`), with no I/O per lookup. */
export class IpCountries {
  constructor(private readonly table: IpCountryTable) {}

  /**
   * ISO 3166-1 alpha-2, upper case (`DE`; DB-IP also uses `XK` for Kosovo),
   * or `unknown`: not an IP address, a private, loopback or other
   * non-public address, or one the data has no country for.
   */
  countryOf(address: string): string {
    const bytes = parseIp(address);
    if (!bytes || !isPublicAddress(bytes)) return unknownCountry;
    const index = isIpv4(bytes) ? findIpv4(this.table.ipv4, bytes) : findIpv6(this.table.ipv6, bytes);
    return index < 0 ? unknownCountry : this.table.countries[index]!;
  }

  /** How many ranges the table holds (after merging neighbours of one country), for the start-up log. */
  get ranges(): number {
    return this.table.ipv4.countries.length + this.table.ipv6.countries.length;
  }
}

/** Big-endian 32-bit word `i` of the 16-byte address. */
const word = (bytes: IpAddress, i: number) => ((bytes[4 * i]! << 24) | (bytes[4 * i + 1]! << 16) | (bytes[4 * i + 2]! << 8) | bytes[4 * i + 3]!) >>> 0;

/** The country index of the last range starting at or below the address; -1 below the first. */
function findIpv4(list: RangeList, bytes: IpAddress): number {
  const key = word(bytes, 3);
  const { starts } = list;
  let low = 0;
  let high = starts.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    if (starts[mid]! <= key) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found < 0 ? -1 : list.countries[found]!;
}

function findIpv6(list: RangeList, bytes: IpAddress): number {
  const w0 = word(bytes, 0);
  const w1 = word(bytes, 1);
  const w2 = word(bytes, 2);
  const w3 = word(bytes, 3);
  const { starts } = list;
  let low = 0;
  let high = starts.length / 4 - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const k = mid * 4;
    // Lexicographic over the four words: the first that differs decides.
    const atOrBelow =
      starts[k] !== w0 ? starts[k]! < w0 : starts[k + 1] !== w1 ? starts[k + 1]! < w1 : starts[k + 2] !== w2 ? starts[k + 2]! < w2 : starts[k + 3]! <= w3;
    if (atOrBelow) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found < 0 ? -1 : list.countries[found]!;
}
