import type { Link } from "./link.ts";
import type { LinkRecord } from "./link-schemas.ts";

/** The contract's record body; `origin` is where clients reach the gateway. */
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
