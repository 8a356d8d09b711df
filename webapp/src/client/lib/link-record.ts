/** A link as its page reads it from the API: the record, and its public count, as the API's schemas type them (lib/api-types.ts). */
import type { Answer } from "./api-call.ts";

/**
 * A record as anyone may read it (docs/people.md: "Private by default"):
 * the options only for those who may read the link (its manage token, its
 * workspace, an admin, a key with links:read), and a protected link's
 * long_url null to anyone else.
 */
export type PublicRecord = Answer<"GET /shorten/{short_url}">;

/** The options a record carries for a reader of the link (and public_stats, which it carries for anyone). */
export type OptionName =
  | "expires_at"
  | "max_visits"
  | "expired_url"
  | "redirect_status"
  | "password_protected"
  | "tags"
  | "title"
  | "forward_query"
  | "rules"
  | "state"
  | "public_stats";

/** A record as a reader of the link reads it: every option there. */
export type LinkRecord = PublicRecord & Required<Pick<PublicRecord, OptionName>>;

/** Whether the record was read by a reader of its link: the options are there together or not at all. */
export function readsOptions<T extends PublicRecord>(record: T): record is T & LinkRecord {
  return record.state !== undefined;
}

/** `GET /shorten/<code>/stats`: public, cheap, what the page polls; state and password_protected only for a reader of the link. */
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
