import { IpCountryTableBuilder, type IpCountryTable } from "./ip-country-table.ts";

/**
 * The two files of an `@ip-location-db/*-country` package this reader uses,
 * as bytes: `*-ipv4-num.csv` (`16777216,16777471,AU`: decimal addresses) and
 * `*-ipv6.csv` (`2001:200::,2001:200:134:ffff:ffff:ffff:ffff:ffff,JP`).
 * Each line is one inclusive range, in ascending order.
 * https://github.com/sapics/ip-location-db#csv-format
 */
export interface IpLocationDbCsv {
  ipv4Num: Uint8Array;
  ipv6: Uint8Array;
}

const comma = 0x2c;
const newline = 0x0a;
const carriageReturn = 0x0d;
const colon = 0x3a;

/**
 * Reads both files into a compact table. The loops work on bytes, not on
 * strings split into lines: 700,000 lines are read in well under a second,
 * where `parseIp` on each IPv6 address alone took over one.
 */
export function readIpLocationDbCsv(csv: IpLocationDbCsv): IpCountryTable {
  const builder = new IpCountryTableBuilder();
  const start = new Uint32Array(4);
  const end = new Uint32Array(4);
  const startV4 = start.subarray(0, 1);
  const endV4 = end.subarray(0, 1);

  forEachLine(csv.ipv4Num, "IPv4", (bytes, line) => {
    const first = parseDecimalU32(bytes, line.startFrom, line.startTo);
    const last = parseDecimalU32(bytes, line.endFrom, line.endTo);
    if (first === undefined || last === undefined) throw new Error("not two decimal addresses");
    startV4[0] = first;
    endV4[0] = last;
    builder.ipv4.add(startV4, endV4, builder.countryIndex(text(bytes, line.countryFrom, line.countryTo)));
  });
  forEachLine(csv.ipv6, "IPv6", (bytes, line) => {
    if (!parseIpv6(bytes, line.startFrom, line.startTo, start) || !parseIpv6(bytes, line.endFrom, line.endTo, end)) {
      throw new Error("not two IPv6 addresses");
    }
    builder.ipv6.add(start, end, builder.countryIndex(text(bytes, line.countryFrom, line.countryTo)));
  });
  return builder.build();
}

/** Where the three fields of a line are: [from, to) byte offsets. */
interface LineFields {
  startFrom: number;
  startTo: number;
  endFrom: number;
  endTo: number;
  countryFrom: number;
  countryTo: number;
}

/**
 * Calls `read` with the offsets of the three fields of each non-empty line
 * (one object, reused from line to line). Throws on a line that
 * has not three fields, or that `read` refuses, naming the file and line.
 * One pass over the bytes: a native `indexOf` per field cost more in calls
 * than it saved.
 */
function forEachLine(bytes: Uint8Array, family: string, read: (bytes: Uint8Array, fields: LineFields) => void): void {
  const fields: LineFields = { startFrom: 0, startTo: 0, endFrom: 0, endTo: 0, countryFrom: 0, countryTo: 0 };
  let line = 1;
  let lineStart = 0;
  let commas = 0;
  for (let i = 0; i <= bytes.length; i++) {
    const byte = i < bytes.length ? bytes[i]! : newline;
    if (byte === comma) {
      if (commas === 0) {
        fields.startTo = i;
        fields.endFrom = i + 1;
      } else if (commas === 1) {
        fields.endTo = i;
        fields.countryFrom = i + 1;
      }
      commas++;
    } else if (byte === newline) {
      const contentEnd = i > lineStart && bytes[i - 1] === carriageReturn ? i - 1 : i;
      if (contentEnd > lineStart) {
        if (commas !== 2) throw new Error(`${family} line ${line}: not three comma-separated fields`);
        fields.startFrom = lineStart;
        fields.countryTo = contentEnd;
        try {
          read(bytes, fields);
        } catch (error) {
          throw new Error(`${family} line ${line}: ${(error as Error).message}`, { cause: error });
        }
      }
      line++;
      lineStart = i + 1;
      commas = 0;
    }
  }
}

function parseDecimalU32(bytes: Uint8Array, from: number, to: number): number | undefined {
  if (to <= from || to - from > 10) return undefined;
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = bytes[i]! - 0x30;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return value <= 0xffffffff ? value : undefined;
}

const groups = new Uint16Array(8);

/**
 * An IPv6 address in hexadecimal groups with at most one `::`, as these
 * files write them (never a dotted-quad tail), into four 32-bit words.
 */
function parseIpv6(bytes: Uint8Array, from: number, to: number, out: Uint32Array): boolean {
  let count = 0;
  let gapAt = -1;
  let i = from;
  if (to - from >= 2 && bytes[i] === colon && bytes[i + 1] === colon) {
    gapAt = 0;
    i += 2;
  }
  while (i < to) {
    let value = 0;
    let digits = 0;
    for (let digit = hexDigit(bytes[i]!); digit >= 0 && i < to; digit = hexDigit(bytes[++i] ?? 0)) {
      value = value * 16 + digit;
      digits++;
    }
    if (digits === 0 || digits > 4 || count === 8) return false;
    groups[count++] = value;
    if (i === to) break;
    if (bytes[i] !== colon || ++i === to) return false;
    if (bytes[i] === colon) {
      if (gapAt >= 0) return false;
      gapAt = count;
      i++;
    }
  }
  if (gapAt < 0 ? count !== 8 : count > 7) return false;
  if (gapAt >= 0) {
    // Move the groups after `::` to the end and fill the gap with zeros.
    const after = count - gapAt;
    for (let k = 1; k <= after; k++) groups[8 - k] = groups[count - k]!;
    groups.fill(0, gapAt, 8 - after);
  }
  for (let w = 0; w < 4; w++) out[w] = ((groups[2 * w]! << 16) | groups[2 * w + 1]!) >>> 0;
  return true;
}

function hexDigit(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** A country field as text; a long one is no code, and is not worth decoding. */
function text(bytes: Uint8Array, from: number, to: number): string {
  if (to - from === 2) return String.fromCharCode(bytes[from]!, bytes[from + 1]!);
  return to - from > 8 ? "" : String.fromCharCode(...bytes.subarray(from, to));
}
