/** A link as its page reads it from the API: the record, and its public count. */
import type { LinkOptions } from "./link-options.ts";

/** `long_url` (and the options' addresses) are null for a protected link, unless its manage token or an admin asks. */
export interface LinkRecord extends LinkOptions {
  short_url: string;
  long_url: string | null;
  link: string;
  access_count: number;
  created_at: string;
  updated_at: string;
}

/** `GET /shorten/<code>/stats/`: public, cheap, what the page polls. */
export interface LinkStats {
  short_url: string;
  access_count: number;
  last_accessed_at: string | null;
}

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
