/**
 * An IP address as 16 bytes. IPv4 is held as IPv4-mapped IPv6
 * (`::ffff:a.b.c.d`), which is also what a dual-stack socket reports for an
 * IPv4 peer: one representation, so `1.2.3.4` and `::ffff:1.2.3.4` are the
 * same client and one range matcher serves both families.
 */
export type IpAddress = Uint8Array;

const ipv4Mapped = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/** The address in `text` (IPv4 dotted quad or IPv6, a `%zone` ignored), or undefined. */
export function parseIp(text: string): IpAddress | undefined {
  const v4 = parseIpv4(text);
  if (v4) {
    const bytes = new Uint8Array(16);
    bytes.set(ipv4Mapped);
    bytes.set(v4, 12);
    return bytes;
  }
  if (!text.includes(":")) return undefined;
  return parseIpv6(text.includes("%") ? text.replace(/%[^%]+$/, "") : text);
}

/** True for an IPv4 address (held as `::ffff:a.b.c.d`). */
export function isIpv4(address: IpAddress): boolean {
  return ipv4Mapped.every((byte, i) => address[i] === byte);
}

/** The canonical text: dotted quad for IPv4, RFC 5952 for IPv6 (lower case, longest zero run as `::`). */
export function formatIp(address: IpAddress): string {
  if (isIpv4(address)) return `${address[12]}.${address[13]}.${address[14]}.${address[15]}`;
  const groups = Array.from({ length: 8 }, (_, i) => (address[2 * i]! << 8) | address[2 * i + 1]!);
  let bestStart = -1;
  let bestLength = 1; // a single zero group is not shortened (RFC 5952 4.2.2)
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === 0) length++;
    if (length > bestLength) [bestStart, bestLength] = [start, length];
  }
  const hex = (part: number[]) => part.map((group) => group.toString(16)).join(":");
  if (bestStart < 0) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLength))}`;
}

const dot = 0x2e;
const zero = 0x30;

/**
 * The four octets of a dotted quad, each 0–255 without a leading zero
 * ("010" is octal to some parsers and decimal to others, and an address two
 * components read differently is no identity), or undefined. Read character
 * by character rather than by a regular expression: every request's client
 * address passes here (trusted proxies, rate limits, the visitor's
 * country), and this is several times faster.
 */
function parseIpv4(text: string): number[] | undefined {
  if (text.length < 7 || text.length > 15) return undefined;
  const octets: number[] = [];
  let value = 0;
  let digits = 0;
  // One step past the end, read as a dot, closes the last octet.
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : dot;
    if (code === dot) {
      if (digits === 0 || octets.length === 4) return undefined;
      octets.push(value);
      value = 0;
      digits = 0;
      continue;
    }
    const digit = code - zero;
    if (digit < 0 || digit > 9 || (digits > 0 && value === 0)) return undefined;
    value = value * 10 + digit;
    digits++;
    if (value > 255) return undefined;
  }
  return octets.length === 4 ? octets : undefined;
}

const colon = 0x3a;

/** The value of a hexadecimal digit's character code, or -1. */
function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/**
 * Groups of one to four hex digits split by `:`, eight of them or fewer
 * around one `::`, the last two of which may be written as a dotted quad
 * (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`). Read character by character, as
 * `parseIpv4` is.
 */
function parseIpv6(text: string): IpAddress | undefined {
  const length = text.length;
  if (length < 2 || length > 45) return undefined;
  const words: number[] = [];
  let gapAt = -1; // where `::` stands, in words
  let i = 0;
  if (text.charCodeAt(0) === colon) {
    if (text.charCodeAt(1) !== colon) return undefined;
    gapAt = 0;
    i = 2;
  }
  while (i < length) {
    const groupStart = i;
    let value = 0;
    let digits = 0;
    for (let digit = hexDigit(text.charCodeAt(i)); digit >= 0 && i < length; digit = hexDigit(text.charCodeAt(++i))) {
      value = value * 16 + digit;
      digits++;
    }
    if (i < length && text.charCodeAt(i) === dot) {
      const v4 = words.length <= 6 ? parseIpv4(text.slice(groupStart)) : undefined;
      if (!v4) return undefined;
      words.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      break;
    }
    if (digits === 0 || digits > 4) return undefined;
    words.push(value);
    if (i === length) break;
    if (text.charCodeAt(i) !== colon || ++i === length) return undefined;
    if (text.charCodeAt(i) === colon) {
      if (gapAt >= 0) return undefined;
      gapAt = words.length;
      i++;
    }
  }
  if (gapAt < 0 ? words.length !== 8 : words.length > 7) return undefined;

  const bytes = new Uint8Array(16);
  const tailFrom = gapAt < 0 ? 8 : 8 - (words.length - gapAt);
  words.forEach((word, index) => {
    const at = gapAt >= 0 && index >= gapAt ? tailFrom + (index - gapAt) : index;
    bytes[2 * at] = word >> 8;
    bytes[2 * at + 1] = word & 0xff;
  });
  return bytes;
}
