import { parseIp, type IpAddress } from "./ip-address.ts";

/** A CIDR range over the 16-byte form: an IPv4 `/n` is `/(96 + n)` of its IPv4-mapped form. */
export interface IpRange {
  base: IpAddress;
  prefixBits: number;
}

/** `10.0.0.0/8`, `fd00::/8`, or a single address (the whole prefix). Throws on anything else. */
export function parseIpRange(text: string): IpRange {
  const [addressText = "", bitsText, ...rest] = text.trim().split("/");
  const address = parseIp(addressText);
  // The prefix counts in the family the range is written in: `::ffff:10.0.0.0/104` is `10.0.0.0/8`.
  const maxBits = addressText.includes(":") ? 128 : 32;
  if (!address || rest.length > 0 || (bitsText !== undefined && !(/^\d{1,3}$/.test(bitsText) && Number(bitsText) <= maxBits))) {
    throw new Error(`"${text}" is not an IP address or CIDR range`);
  }
  const bits = bitsText === undefined ? maxBits : Number(bitsText);
  return { base: address, prefixBits: bits + (128 - maxBits) };
}

/** True when the first `prefixBits` bits of `address` are those of the range (host bits in the range's base ignored). */
export function inIpRange(address: IpAddress, range: IpRange): boolean {
  const fullBytes = range.prefixBits >> 3;
  for (let i = 0; i < fullBytes; i++) if (address[i] !== range.base[i]) return false;
  const restBits = range.prefixBits & 7;
  if (restBits === 0) return true;
  const mask = (0xff << (8 - restBits)) & 0xff;
  return ((address[fullBytes]! ^ range.base[fullBytes]!) & mask) === 0;
}

/** True when `address` is in any of `ranges`. */
export function inAnyIpRange(address: IpAddress, ranges: readonly IpRange[]): boolean {
  return ranges.some((range) => inIpRange(address, range));
}

/**
 * A comma list of addresses and CIDR ranges, as configuration gives it
 * (TRUSTED_PROXIES): each entry parsed by `parseIpRange`, the parser the
 * request path uses, so a list that passed at start cannot fail later. An
 * empty list is allowed (trust nothing). Throws naming the first bad entry,
 * in words that complete "NAME …".
 */
export function parseIpRangeList(raw: string): IpRange[] {
  const entries = raw
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  return entries.map((entry) => {
    try {
      return parseIpRange(entry);
    } catch {
      throw new Error(`has "${entry}", which is not an IP address or CIDR range`);
    }
  });
}
