/** The kind of device a visit came from; a bot is its own kind, whatever it claims to run on. */
export type VisitDevice = "desktop" | "mobile" | "tablet" | "bot" | "other";

/**
 * What one counted redirect contributes to its link's analytics: no client
 * address and no User-Agent, only these families. Every string is printable
 * ASCII of at most 253 characters (a host name's limit), so it can be a
 * database key and an API value as it is.
 */
export interface VisitFacts {
  /** isbot's verdict; a missing or empty User-Agent also counts as a bot (no browser sends none). */
  bot: boolean;
  /** The Referer's host (`news.ycombinator.com`), `direct` without one, `unknown` when it is not an http(s) URL. */
  referrer: string;
  /** ISO 3166-1 alpha-2 (`DE`), or `unknown` (private, loopback or unlisted address). */
  country: string;
  /** `Chrome`, `Safari`, `Samsung Internet`, `Instagram`, … or a bot's name (`Googlebot`, `curl`); `other` when unknown. */
  browser: string;
  /** `Windows`, `macOS`, `iOS` (iPads too), `Android`, `Linux`, `ChromeOS`, …; `other` when unknown, and for every bot. */
  os: string;
  device: VisitDevice;
}
