/** A link as its page reads it from the API: the record, and its public count, as the API's schemas type them (lib/api-types.ts). */
import type { Answer } from "./api-call.ts";

/** `long_url` (and the options' addresses) are null for a protected link, unless its manage token or an admin asks. */
export type LinkRecord = Answer<"GET /shorten/{short_url}">;

/** `GET /shorten/<code>/stats`: public, cheap, what the page polls. */
export type LinkStats = Answer<"GET /shorten/{short_url}/stats">;

/**
 * The code in a link page's address, decoded; "" (which no link has) when
 * the address holds a malformed escape such as `%E0%A4%A`, so the page says
 * the link does not exist instead of stopping with a script error.
 */
export function codeInAddress(pathname: string): string {
  try {
    return decodeURIComponent(pathname.replace(/^\/app\/links\//, "").replace(/\/+$/, ""));
  } catch {
    return "";
  }
}
