import type { Link } from "./link.ts";
import type { LinkRecord, ListedLink } from "./link-schemas.ts";

/** The API's link record (README: "API"); `origin` is where clients reach the gateway. */
export function toRecord(link: Link, origin: string): LinkRecord {
  return {
    short_url: link.code,
    long_url: link.longUrl,
    link: `${origin}/${link.code}/`,
    access_count: link.accessCount,
    created_at: link.createdAt.toISOString(),
    updated_at: link.updatedAt.toISOString(),
  };
}

/** The record as a listing shows it: with the last visit. */
export function toListedRecord(link: Link, origin: string): ListedLink {
  return { ...toRecord(link, origin), last_accessed_at: link.lastAccessedAt?.toISOString() ?? null };
}
