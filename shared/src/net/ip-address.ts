/**
 * An IP address as 16 bytes. IPv4 is held as IPv4-mapped IPv6
 * (`::ffff:a.b.c.d`), which is also what a dual-stack socket reports for an
 * IPv4 peer: one representation, so `1.2.3.4` and `::ffff:1.2.3.4` are the
 * same client and one range matcher serves both families.
 */
export type IpAddress = Uint8Array;

const ipv4Mapped = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

// 0–255 without leading zeros: "010" is octal to some parsers and decimal to
// others, and an address two components read differently is no identity.
const octet = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const ipv4Pattern = new RegExp(`^${octet}\\.${octet}\\.${octet}\\.${octet}$`);
const hexGroup = /^[0-9a-f]{1,4}$/i;

/** The address in `text` (IPv4 dotted quad or IPv6, a `%zone` ignored), or undefined. */
export function parseIp(text: string): IpAddress | undefined {
  const v4 = parseIpv4(text);
  if (v4) return Uint8Array.from([...ipv4Mapped, ...v4]);
  return text.includes(":") ? parseIpv6(text.replace(/%[^%]+$/, "")) : undefined;
}

/** True for an IPv4 address (held as `::ffff:a.b.c.d`). */
export function isIpv4(address: IpAddress): boolean {
  return ipv4Mapped.every((byte, i) => address[i] === byte);
}

/** The canonical text: dotted quad for IPv4, RFC 5952 for IPv6 (lower case, longest zero run as `::`). */
export function formatIp(address: IpAddress): string {
  if (isIpv4(address)) return Array.from(address.subarray(12)).join(".");
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

function parseIpv4(text: string): number[] | undefined {
  const match = ipv4Pattern.exec(text);
  return match ? match.slice(1).map(Number) : undefined;
}

function parseIpv6(text: string): IpAddress | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const head = halves[0] === "" ? [] : halves[0]!.split(":");
  const tail = halves.length === 1 || halves[1] === "" ? [] : halves[1]!.split(":");
  const groups = [...head, ...tail];

  // The address may end in a dotted quad (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`), worth two groups.
  const endsInGroup = halves.length === 1 || tail.length > 0;
  const words: number[] = [];
  for (const [i, group] of groups.entries()) {
    if (hexGroup.test(group)) {
      words.push(parseInt(group, 16));
      continue;
    }
    const v4 = endsInGroup && i === groups.length - 1 ? parseIpv4(group) : undefined;
    if (!v4) return undefined;
    words.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
  }
  const headWords = words.length - countWords(tail);
  if (halves.length === 1 ? words.length !== 8 : words.length > 7) return undefined;

  const all = [...words.slice(0, headWords), ...Array<number>(8 - words.length).fill(0), ...words.slice(headWords)];
  const bytes = new Uint8Array(16);
  all.forEach((word, i) => {
    bytes[2 * i] = word >> 8;
    bytes[2 * i + 1] = word & 0xff;
  });
  return bytes;
}

/** Words in the part after `::`: a trailing dotted quad counts two. */
function countWords(groups: string[]): number {
  const last = groups.at(-1);
  return groups.length + (last?.includes(".") ? 1 : 0);
}
