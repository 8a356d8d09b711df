/**
 * What a threat feed lists, read from a file in the formats operators
 * already download (docs/abuse.md). One file may be:
 *
 * - a CSV with a `url` column: URLhaus's (its header is a `#` comment:
 *   `# id,dateadded,url,…`) and PhishTank's (`phish_id,url,…`);
 * - PhishTank's JSON: an array of objects with a `url`;
 * - a list, one entry a line, `#` and `!` lines comments: a URL (URLhaus's
 *   plain list), a hosts-file line (`0.0.0.0 bad.example`), an adblock
 *   rule of a whole domain (`||bad.example^`, as hagezi publishes, under
 *   its `[Adblock Plus]` header line), or a bare domain name (`bad.example`,
 *   or `*.bad.example` as wildcard lists write it).
 *
 * A line that is none of these is skipped and counted, never an error: a
 * feed is someone else's file.
 */
export interface ThreatEntries {
  /** Normalised URLs (`threatUrlKey`): the URL itself is listed. */
  urls: string[];
  /** Host names, lower case, punycode, no trailing dot: the host and every name under it are listed. */
  hosts: string[];
  /** Lines that were none of the formats. */
  skipped: number;
}

/** The addresses a hosts file points listed names at, and names it lists that are no threat. */
const hostsFileAddresses = new Set(["0.0.0.0", "127.0.0.1", "::", "::1", "0", "::0"]);
const hostsFileOwnNames = new Set(["localhost", "localhost.localdomain", "local", "broadcasthost", "ip6-localhost", "ip6-loopback", "0.0.0.0"]);

/** Lines read between two yields to the event loop when a feed is read in slices: a few milliseconds of work. */
const linesPerSlice = 5_000;

/** A feed's entries, read at once (a test, a small file). */
export function parseThreatEntries(text: string): ThreatEntries {
  const reader = new ThreatEntryReader(text);
  while (!reader.read(Number.POSITIVE_INFINITY));
  return reader.entries;
}

/** A feed's entries, read a slice of lines at a time with a yield between, so a file of millions of lines never holds up a request for long. */
export async function readThreatEntries(text: string): Promise<ThreatEntries> {
  const reader = new ThreatEntryReader(text);
  while (!reader.read(linesPerSlice)) await Bun.sleep(0);
  return reader.entries;
}

class ThreatEntryReader {
  readonly entries: ThreatEntries = { urls: [], hosts: [], skipped: 0 };
  private readonly text: string;
  private readonly urlColumn: number | undefined;
  /** Where the next line starts; the text's length once every line is read. */
  private next = 0;

  constructor(text: string) {
    const body = text.replace(/^\uFEFF/, "");
    this.text = body;
    // An array, not an adblock list's header (`[Adblock Plus]`, the first line of hagezi's lists).
    if (/^\s*\[\s*[{["\d\-\]]/.test(body)) {
      fromJson(body, this.entries);
      this.next = body.length;
    }
    // The lines are walked, never split at once: a feed of millions of lines would be one long pause.
    this.urlColumn = csvUrlColumn(body.slice(0, 64 * 1024).split(/\r?\n/));
  }

  /** Reads up to `count` more lines; true once every line is read. */
  read(count: number): boolean {
    for (let read = 0; read < count && this.next < this.text.length; read++) {
      const end = this.text.indexOf("\n", this.next);
      const stop = end === -1 ? this.text.length : end;
      this.readLine(this.text.slice(this.next, stop).trim());
      this.next = stop + 1;
    }
    return this.next >= this.text.length;
  }

  private readLine(line: string): void {
    // Comments, and an adblock list's header (`[Adblock Plus]`).
    // (A header names its syntax, a word: a bracketed IPv6 address is an entry.)
    if (line === "" || line.startsWith("#") || line.startsWith("!") || /^\[[A-Za-z][^\]]*\]$/.test(line)) return;
    if (this.urlColumn === undefined) {
      addListLine(this.entries, line);
      return;
    }
    const cells = csvCells(line);
    // The header of a CSV whose header is no comment (PhishTank's).
    if (cells[this.urlColumn] !== "url") addUrl(this.entries, cells[this.urlColumn]);
  }
}

/** The index of the `url` column, when the file is a CSV whose header (a `#` comment or not) names one within its first lines. */
function csvUrlColumn(lines: readonly string[]): number | undefined {
  for (const line of lines.slice(0, 20)) {
    const header = line.replace(/^#\s*/, "").trim();
    if (!header.includes(",")) continue;
    const index = csvCells(header).indexOf("url");
    if (index !== -1) return index;
  }
  return undefined;
}

/** The cells of one CSV line (RFC 4180 quotes; a quoted cell's line breaks are not expected in feeds). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      cells.push(cell.trim());
      cell = "";
    } else cell += char;
  }
  cells.push(cell.trim());
  return cells;
}

function fromJson(text: string, entries: ThreatEntries): void {
  let items: unknown;
  try {
    items = JSON.parse(text);
  } catch {
    entries.skipped++;
    return;
  }
  if (!Array.isArray(items)) {
    entries.skipped++;
    return;
  }
  for (const item of items) addUrl(entries, typeof item === "object" && item !== null ? (item as { url?: unknown }).url : undefined);
}

function addListLine(entries: ThreatEntries, line: string): void {
  const adblock = /^\|\|([^/^$]+)\^(\$.*)?$/.exec(line);
  const words = line
    .replace(/\s#.*$/, "")
    .trim()
    .split(/\s+/);
  if (adblock) addHost(entries, adblock[1]!);
  else if (words.length >= 2 && hostsFileAddresses.has(words[0]!)) {
    for (const name of words.slice(1)) if (!hostsFileOwnNames.has(name.toLowerCase())) addHost(entries, name);
  } else if (words.length !== 1) entries.skipped++;
  else if (words[0]!.includes("://")) addUrl(entries, words[0]);
  // A wildcard list's `*.bad.example` (hagezi's wildcard format): a host entry lists every name under it already.
  else addHost(entries, words[0]!.replace(/^\*\./, ""));
}

function addUrl(entries: ThreatEntries, raw: unknown): void {
  const key = typeof raw === "string" ? threatUrlKey(raw) : undefined;
  if (key === undefined) entries.skipped++;
  else entries.urls.push(key);
}

function addHost(entries: ThreatEntries, raw: string): void {
  const host = threatHostKey(raw);
  if (host === undefined) entries.skipped++;
  else entries.hosts.push(host);
}

/**
 * A URL as feeds and links are compared, so that spellings a server takes
 * for the same address meet: parsed (case, default ports and IP spellings
 * agree), without its fragment, which never reaches the server; the host
 * without a trailing dot; escapes of ASCII characters decoded, but those
 * that would change how the URL splits (`%25`, and `%2F` `%3F` `%23` in
 * the path, `%26` `%3D` `%2B` `%23` in the query), and the others in upper
 * case (RFC 3986 6.2.2); in the path, runs of `/` as one and `.` and `..`
 * segments resolved (as Safe Browsing's lists are matched); in the query,
 * `+` read as the space it stands for, empty `&` parts left out, and an
 * empty query as none. So `?email=a@b.c` and the `?email=a%40b.c` a
 * forwarded query is written as meet. Undefined for no http(s) URL.
 */
export function threatUrlKey(raw: string): string | undefined {
  const url = URL.parse(raw.trim());
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") return undefined;
  const host = url.hostname.replace(/\.+$/, "");
  if (host === "") return undefined;
  url.hostname = host;
  url.hash = "";
  // Set again through the parser, which resolves the `.` and `..` an escape decoded into and escapes what it must.
  url.pathname = escapesDecoded(url.pathname, pathDelimiters).replace(/\/{2,}/g, "/");
  const query = escapesDecoded(url.search.slice(1).replaceAll("+", "%20"), queryDelimiters)
    .split("&")
    .filter((part) => part !== "")
    .join("&");
  url.search = query === "" ? "" : `?${query}`;
  return url.href;
}

/** The escaped characters that would change how a path or a query splits, decoded: kept escaped. */
const pathDelimiters = new Set(["%", "/", "?", "#"]);
const queryDelimiters = new Set(["%", "&", "=", "+", "#"]);

/** Percent-escapes of ASCII characters decoded, but `kept`'s; the others' hex digits in upper case. */
function escapesDecoded(text: string, kept: ReadonlySet<string>): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const code = Number.parseInt(hex, 16);
    const char = String.fromCharCode(code);
    return code < 0x80 && !kept.has(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/**
 * A host name as feeds and links are compared, as the URL parser writes it
 * (lower case, punycode) without a trailing dot; undefined for anything
 * else: a port (`:80` too), a wildcard, an empty label, a label over 63
 * characters or a name over 253 (no host has them), or a single label (a
 * list's `com` would list every .com name).
 */
export function threatHostKey(raw: string): string | undefined {
  if (raw === "" || raw.length > 2 * maxHostLength || /[/\s@]/.test(raw)) return undefined;
  const url = URL.parse(`http://${raw}/`);
  if (url?.port !== "" || url.hostname === "") return undefined;
  const host = url.hostname.replace(/\.+$/, "");
  if (host.startsWith("[")) return raw.includes("]:") ? undefined : host;
  // The parser drops a default port (`:80`) and keeps what DNS has no use for: neither is a host name.
  if (raw.replace(/\.+$/, "").includes(":") || host.length > maxHostLength) return undefined;
  const labels = host.split(".");
  return labels.length > 1 && labels.every((label) => hostLabel.test(label)) ? host : undefined;
}

/** The longest host name DNS has (RFC 1035 2.3.4). */
const maxHostLength = 253;
/** A host name's label as DNS names have them, underscores too (some do); `-` not at either end. */
const hostLabel = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
