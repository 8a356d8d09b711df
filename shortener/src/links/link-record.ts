import { linkState } from "./destination.ts";
import type { Link } from "./link.ts";
import type { LinkOptionsRecord, LinkRecord, ListedLink } from "./link-schemas.ts";
import { mayReadLink, mayReadUrls, type Reader } from "./url-readers.ts";
import { defaultDomainId } from "../domains/domain.ts";
import { keyParts, unknownDomainHost } from "./link-key.ts";

export type { Reader } from "./url-readers.ts";

/** How a record is shown: where clients reach the gateway, the clock of its state, and who reads it. */
export interface RecordView {
  /** The default domain's origin: PUBLIC_BASE_URL's, or the request's. */
  origin: string;
  now: Date;
  reader: Reader;
  /** An added domain's host by its id (link-address.ts: hostsOf). */
  hostOf?: (domainId: number) => string | null | undefined;
  /** The default domain's host, when it is not the origin's ("" when the request came by an added domain's host and PUBLIC_BASE_URL is unset). */
  defaultHost?: string;
}

/**
 * The API's link record (docs/api.md: "API"), with what `view.reader` may
 * not read left out: the seed's fields and the domain are anyone's, the
 * options only a reader's of the link (docs/people.md: "Private by
 * default"), and the URLs of a link with a password only theirs too.
 */
export function toRecord(link: Link, view: RecordView): LinkRecord {
  const readsLink = mayReadLink(link, view.reader);
  const shown = mayReadUrls(link, view.reader);
  const { domainId, code } = keyParts(link.code);
  // A domain this replica does not know (deleted, or added a moment ago elsewhere) is named as no host can be, never as the default.
  const host = domainId === defaultDomainId ? undefined : (view.hostOf?.(domainId) ?? unknownDomainHost(domainId));
  const origin = host === undefined ? view.origin : `${view.origin.slice(0, view.origin.indexOf("//"))}//${host}`;
  const seen = {
    short_url: code,
    domain: host ?? view.defaultHost ?? hostNameOf(view.origin),
    long_url: shown ? link.longUrl : null,
    link: `${origin}/${code}/`,
    access_count: link.accessCount,
    created_at: link.createdAt.toISOString(),
    updated_at: link.updatedAt.toISOString(),
  };
  // In this order for everyone: the options (a reader's), then whether the report is open (anyone's), then the workspace.
  const last = { public_stats: link.publicStats, workspace: readsLink ? link.workspaceId : null };
  return readsLink ? { ...seen, ...optionsOf(link, view.now), ...last } : { ...seen, ...last };
}

/** A link's options as its readers see them: every URL too (whoever may read a link may read its URLs: url-readers.ts). */
function optionsOf(link: Link, now: Date): LinkOptionsRecord {
  return {
    expires_at: link.expiresAt?.toISOString() ?? null,
    max_visits: link.maxVisits,
    expired_url: link.expiredUrl,
    redirect_status: link.redirectStatus,
    password_protected: link.passwordHash !== null,
    tags: link.tags,
    title: link.title,
    forward_query: link.forwardQuery,
    rules: link.rules,
    state: linkState(link, now),
    hold_reason: link.holdReason,
    public_stats: link.publicStats,
  };
}

/** The record as a listing shows it: with the last visit. */
export function toListedRecord(link: Link, view: RecordView): ListedLink {
  // A listing's filter (seesLink, or the manage token's own link) lets through only links its caller may read.
  if (!mayReadLink(link, view.reader)) throw new Error("a listing holds a link its reader may not read");
  return { ...toRecord(link, view), ...optionsOf(link, view.now), last_accessed_at: link.lastAccessedAt?.toISOString() ?? null };
}

/** The host name of an origin (no port): the default domain's, as a record names it. */
function hostNameOf(origin: string): string {
  return URL.parse(origin)?.hostname ?? "";
}
