import { BoundedMap } from "@linkgeo/shared";
import { otherFamily } from "./client-families.ts";
import { parseUserAgent, type UserAgentFacts } from "./parse-user-agent.ts";

/** Characters of a User-Agent that are read; real ones are 100 to 300 long. */
export const maxUserAgentLength = 512;

/**
 * Every browser sends a User-Agent; a request without one (or with an empty
 * one) comes from a script or a tool, and counting it among people would
 * inflate them.
 */
export const missingUserAgentFacts: UserAgentFacts = Object.freeze({ bot: true, browser: otherFamily, os: otherFamily, device: "bot" });

export interface UserAgentClassifierOptions {
  /** Distinct User-Agents remembered, least recently seen forgotten first. Default 10,000. */
  cacheSize?: number;
  /** The parser; tests count its calls. */
  parse?: (userAgent: string) => UserAgentFacts;
}

/**
 * `parseUserAgent` once per distinct User-Agent, not once per request: a
 * few thousand User-Agents make most of the traffic, and parsing costs tens
 * of microseconds. Only the first 512 characters are read (and kept as the
 * key), so a hostile 64 KiB header costs no more than a real one.
 */
export class UserAgentClassifier {
  private readonly cache: BoundedMap<string, UserAgentFacts>;
  private readonly parse: (userAgent: string) => UserAgentFacts;

  constructor(options: UserAgentClassifierOptions = {}) {
    this.cache = new BoundedMap(options.cacheSize ?? 10_000, { refreshOnRead: true });
    this.parse = options.parse ?? parseUserAgent;
  }

  /** The facts of a User-Agent header's value (null when absent). The object is frozen: it is shared by every request with that User-Agent. */
  classify(userAgent: string | null): UserAgentFacts {
    const key = userAgent?.slice(0, maxUserAgentLength).trim();
    if (!key) return missingUserAgentFacts;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const facts = Object.freeze(this.parse(key));
    this.cache.set(key, facts);
    return facts;
  }

  /** How many User-Agents are remembered. */
  get cachedCount(): number {
    return this.cache.size;
  }
}
