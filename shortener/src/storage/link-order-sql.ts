import type { LinkOrder } from "../links/link-order.ts";

/**
 * Each listing order as SQL, the same on Postgres and SQLite, with the code
 * last so that pages never overlap. Migration 0004's indexes have exactly
 * these columns and directions, so a page is read in index order instead
 * of sorting every link. Never-visited links (no last_accessed_at) come
 * last: said out loud for Postgres, whose DESC puts NULLs first; SQLite
 * puts them last anyway.
 */
export const linkOrderSql: Record<LinkOrder, string> = {
  newest: "created_at DESC, code",
  most_visited: "access_count DESC, created_at DESC, code",
  last_visited: "last_accessed_at DESC NULLS LAST, created_at DESC, code",
};
