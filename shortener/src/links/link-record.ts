import type { Credential } from "../auth/credential.ts";
import { manageTokenMatches } from "../auth/manage-token.ts";
import { mayDo } from "../auth/scopes.ts";
import { linkState } from "./destination.ts";
import type { Link } from "./link.ts";
import type { LinkRecord, ListedLink } from "./link-schemas.ts";

/**
 * Who an answer is for: the credential the request presented (and that
 * verified), or undefined for anyone else.
 */
export type Reader = Credential | undefined;

/** How a record is shown: where clients reach the gateway, the clock of its state, and who reads it. */
export interface RecordView {
  origin: string;
  now: Date;
  reader: Reader;
}

/**
 * Whether `reader` may read a link's URLs (long_url, expired_url, the
 * rules'): the one rule of every answer that shows a record (docs/api.md:
 * "Passwords"). A link without a password hides nothing; a protected one
 * shows them to its manage token, an admin and a key with links:read (or
 * admin), and to no one else. A key is judged by its scopes alone, in the
 * answer of a change too: links:write may change a link it may not read.
 */
export function mayReadUrls(link: Pick<Link, "passwordHash" | "manageTokenHash">, reader: Reader): boolean {
  if (link.passwordHash === null) return true;
  if (reader === undefined) return false;
  if (reader.kind === "manage-token") return manageTokenMatches(reader.token, link.manageTokenHash);
  return mayDo(reader, "links:read");
}

/** The API's link record (docs/api.md: "API"), with what `view.reader` may not read as null. */
export function toRecord(link: Link, view: RecordView): LinkRecord {
  const shown = mayReadUrls(link, view.reader);
  return {
    short_url: link.code,
    long_url: shown ? link.longUrl : null,
    link: `${view.origin}/${link.code}/`,
    access_count: link.accessCount,
    created_at: link.createdAt.toISOString(),
    updated_at: link.updatedAt.toISOString(),
    expires_at: link.expiresAt?.toISOString() ?? null,
    max_visits: link.maxVisits,
    expired_url: shown ? link.expiredUrl : null,
    redirect_status: link.redirectStatus,
    password_protected: link.passwordHash !== null,
    tags: link.tags,
    title: link.title,
    forward_query: link.forwardQuery,
    rules: link.rules.map((rule) => ({ when: rule.when, url: shown ? rule.url : null })),
    state: linkState(link, view.now),
  };
}

/** The record as a listing shows it: with the last visit. */
export function toListedRecord(link: Link, view: RecordView): ListedLink {
  return { ...toRecord(link, view), last_accessed_at: link.lastAccessedAt?.toISOString() ?? null };
}
