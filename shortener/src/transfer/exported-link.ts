import { linkState, type LinkState } from "../links/destination.ts";
import type { LinkRule, RedirectStatus } from "../links/link-options.ts";
import type { Link } from "../links/link.ts";

/**
 * A link as an export writes it: every field of the API's record with
 * every URL shown (the export is an admin's), the last visit, and none of
 * the secrets (the password's hash, the manage token's). Names as in the
 * API; the NDJSON export writes one such object a line, the CSV export one
 * a row under `exportColumns`.
 */
export interface ExportedLink {
  short_url: string;
  /** The host of the link's domain. */
  domain: string;
  long_url: string;
  title: string | null;
  tags: string[];
  expires_at: string | null;
  max_visits: number | null;
  expired_url: string | null;
  redirect_status: RedirectStatus | null;
  password_protected: boolean;
  forward_query: boolean;
  rules: LinkRule[];
  state: LinkState;
  access_count: number;
  last_accessed_at: string | null;
  created_at: string;
  updated_at: string;
  public_stats: boolean;
}

/** The CSV export's header, in its order: also how an import knows the file for ours (linkgeo-csv). */
export const exportColumns = [
  "short_url",
  "domain",
  "long_url",
  "title",
  "tags",
  "expires_at",
  "max_visits",
  "expired_url",
  "redirect_status",
  "password_protected",
  "forward_query",
  "rules",
  "state",
  "access_count",
  "last_accessed_at",
  "created_at",
  "updated_at",
  // Added after the others, at the end: the columns of an export of an earlier release keep their places.
  "public_stats",
] as const satisfies ReadonlyArray<keyof ExportedLink>;

/** Columns an export of an earlier release lacks (domain before domains, public_stats before private records): a header is still ours without them. */
export const laterColumns: ReadonlySet<string> = new Set(["domain", "public_stats"]);

/** Tags in one CSV field: tags are a-z 0-9 _ - only, so a space never occurs in one. */
export const csvTagSeparator = " ";

/** `place`: the link's code and its domain's host, from its key (links/link-address.ts). */
export function toExported(link: Link, now: Date, place: { code: string; domain: string }): ExportedLink {
  return {
    short_url: place.code,
    domain: place.domain,
    long_url: link.longUrl,
    title: link.title,
    tags: link.tags,
    expires_at: link.expiresAt?.toISOString() ?? null,
    max_visits: link.maxVisits,
    expired_url: link.expiredUrl,
    redirect_status: link.redirectStatus,
    password_protected: link.passwordHash !== null,
    forward_query: link.forwardQuery,
    rules: link.rules,
    state: linkState(link, now),
    access_count: link.accessCount,
    last_accessed_at: link.lastAccessedAt?.toISOString() ?? null,
    created_at: link.createdAt.toISOString(),
    updated_at: link.updatedAt.toISOString(),
    public_stats: link.publicStats,
  };
}

/**
 * The CSV fields of an exported link, in `exportColumns` order: null is an
 * empty field, tags are joined by `csvTagSeparator`, rules are their JSON
 * (always, `[]` for none), booleans `true` or `false`.
 */
export function exportedCsvFields(link: ExportedLink): string[] {
  return exportColumns.map((column) => {
    const value = link[column];
    if (value === null) return "";
    if (column === "tags") return link.tags.join(csvTagSeparator);
    if (column === "rules") return JSON.stringify(link.rules);
    return String(value);
  });
}
