import { instantOutOfRange, isStorableInstant } from "../http/instant.ts";

/**
 * Reading the cells other shorteners write (their short URLs, dates,
 * counts and tag lists) into an import record's fields. A cell that cannot
 * be read makes its row a problem: the reader throws UnreadableCell and the
 * table reader (csv-table.ts) reports it with the row's line.
 */

/** A cell out of shape: its message names the column and the value. */
export class UnreadableCell extends Error {
  private constructor(message: string) {
    super(message);
    this.name = "UnreadableCell";
  }

  static because(message: string): UnreadableCell {
    return new UnreadableCell(message);
  }
}

/** The trimmed text, or undefined when there is none. */
export function optionalText(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text ? text : undefined;
}

const scheme = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The code of a short URL as another tool writes it: a whole URL
 * (`https://bit.ly/abc`), one without its scheme (`bit.ly/abc`, as Bitly's
 * ids are), or the bare code (`abc`). The code is the URL's path without
 * its slashes, percent-decoding undone; the host is dropped (links here
 * live on one domain).
 */
export function codeOfShortUrl(value: string | undefined, column: string): string | undefined {
  const text = optionalText(value);
  if (text === undefined) return undefined;
  if (!text.includes("/")) return text;
  let path: string;
  try {
    path = text.startsWith("/") ? text : new URL(scheme.test(text) ? text : `https://${text}`).pathname;
  } catch {
    throw UnreadableCell.because(`${column} "${text}" is not a short URL`);
  }
  const code = safeDecode(path.replace(/[?#].*$/, "").replace(/^\/+|\/+$/g, ""));
  if (code === "") throw UnreadableCell.because(`${column} "${text}" has no code in its path`);
  return code;
}

/**
 * The host of a short URL (`https://go.brand.example/abc`, `go.brand.example/abc`),
 * the link's domain at its source; undefined for none, or for one of
 * `ownHosts` (the source's own domain, which is no domain of the person's).
 */
export function hostOfShortUrl(value: string | undefined, ownHosts: readonly string[] = []): string | undefined {
  const text = optionalText(value);
  if (text === undefined || !text.includes("/") || text.startsWith("/")) return undefined;
  const host = URL.parse(scheme.test(text) ? text : `https://${text}`)?.hostname;
  return host === undefined || host === "" || ownHosts.includes(host) ? undefined : host;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A visit count: a whole number, or undefined when the cell is empty. */
export function readCount(value: string | undefined, column: string): number | undefined {
  const text = optionalText(value);
  if (text === undefined) return undefined;
  const count = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(count)) throw UnreadableCell.because(`${column} must be a whole number, not "${text}"`);
  return count;
}

// 2024-05-01, 2024-05-01 10:20, 2024-05-01T10:20:30.123+02:00, …+0200, …Z
const dateTime = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)? ?(Z|[+-]\d{2}:?\d{2})?)?$/i;
// Unix time in seconds, as Bitly's API gave creation times (2001 to 2286).
const unixSeconds = /^\d{10}$/;

/**
 * An instant as exports write them: ISO 8601 (Shlink, Bitly's API: the
 * offset with or without its colon), a SQL timestamp `2024-05-01 10:20:30`
 * (YOURLS), a bare date, or Unix seconds. A time without a zone is taken
 * as UTC: the exporting server's zone is not in the file. Days that do not
 * exist are refused, and instants outside what every engine here stores
 * (1970 to 9998, http/instant.ts), as for a link's own dates.
 */
export function readInstant(value: string | undefined, column: string): Date | undefined {
  const text = optionalText(value);
  if (text === undefined) return undefined;
  const at = unixSeconds.test(text) ? new Date(Number(text) * 1000) : dateTimeOf(text);
  if (at === undefined) throw UnreadableCell.because(`${column} must be a date and time, as 2024-05-01T10:20:30Z, not "${text}"`);
  if (!isStorableInstant(at)) throw UnreadableCell.because(`${instantOutOfRange(column)}, not "${text}"`);
  return at;
}

function dateTimeOf(text: string): Date | undefined {
  const match = dateTime.exec(text);
  if (match === null) return undefined;
  const [, year, month, day, hour = "0", minute = "0", second = "0", fraction = "0", zone = "Z"] = match;
  const parts = [year, month, day, hour, minute, second].map(Number) as [number, number, number, number, number, number];
  const millisecond = Math.floor(Number(`0.${fraction}`) * 1000);
  const local = new Date(Date.UTC(2000, parts[1] - 1, parts[2], parts[3], parts[4], parts[5], millisecond));
  local.setUTCFullYear(parts[0]);
  // Date rolls 2024-02-30 over to March, and 24:00 to the next day: such a day or time does not exist.
  const exists =
    local.getUTCFullYear() === parts[0] &&
    local.getUTCMonth() === parts[1] - 1 &&
    local.getUTCDate() === parts[2] &&
    local.getUTCHours() === parts[3] &&
    local.getUTCMinutes() === parts[4] &&
    local.getUTCSeconds() === parts[5];
  if (!exists) return undefined;
  return new Date(local.getTime() - offsetMinutes(zone) * 60_000);
}

function offsetMinutes(zone: string): number {
  if (zone.toUpperCase() === "Z") return 0;
  const digits = zone.replace(":", "");
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
  return digits.startsWith("-") ? -minutes : minutes;
}

/** The tags of a cell that lists them between `separators`; undefined when there are none. */
export function splitTags(value: string | undefined, separators: RegExp): string[] | undefined {
  const tags = (value ?? "")
    .split(separators)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");
  return tags.length > 0 ? tags : undefined;
}

/** Whether a cell holds an absolute URL of some scheme (`https://…`, `mailto:…`): what a long URL column holds. */
export function looksLikeUrl(value: string | undefined): boolean {
  return /^[a-z][a-z0-9+.-]*:\S/i.test(value?.trim() ?? "");
}
