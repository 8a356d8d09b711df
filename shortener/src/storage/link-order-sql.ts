import type { LinkOrder } from "../links/link-order.ts";

/**
 * Each listing order as SQL, the same on Postgres and SQLite, with the code
 * last so that pages never overlap. The links_sorted_* indexes have exactly
 * these columns and directions, so a page is read in index order instead
 * of sorting every link. The two visit orders sort on the links' copies of
 * their counts, which the visit log's summing step refreshes: a store
 * settles the log before such a page (sortedByVisits), so the order is that
 * of the counts it shows. Never-visited links (no last_accessed_at) come
 * last: said out loud for Postgres, whose DESC puts NULLs first; SQLite
 * puts them last anyway.
 */
export const linkOrderSql: Record<LinkOrder, string> = {
  newest: "created_at DESC, code",
  most_visited: "sorted_access_count DESC, created_at DESC, code",
  last_visited: "sorted_last_accessed_at DESC NULLS LAST, created_at DESC, code",
};

/** The orders that sort on the copies of the counts: their pages settle the visit log first. */
export function sortedByVisits(order: LinkOrder): boolean {
  return order !== "newest";
}
