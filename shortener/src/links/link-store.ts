import type { LinkVisits } from "../visits/link-visits.ts";
import type { VisitAccess, VisitWriter } from "../visits/visit-writer.ts";
import type { CountedDestination, LinkState, VisitClaim } from "./destination.ts";
import type { LinkOrder } from "./link-order.ts";
import type { ImportedLink, Link, LinkChanges, NewLink } from "./link.ts";
import type { HoldChange } from "./link-hold.ts";

export interface LinkPage {
  /** Links matching the query, across all pages: exact up to the store's `CountLimits.exact`, an estimate past it. */
  count: number;
  countIsEstimate: boolean;
  links: Link[];
  /** Whether a page follows this one (always exact: one row more is read). */
  hasMore: boolean;
}

export type { VisitAccess } from "../visits/visit-writer.ts";

export interface LinkQuery {
  offset: number;
  limit: number;
  /** Case-insensitive substring of the code or the long URL. */
  search?: string;
  /** Default: newest first. */
  order?: LinkOrder;
  /** Only links with this tag (as stored: lower case, parseTag). */
  tag?: string;
  /** Only links in this state (linkState) at `at`: the service's clock, never the database's. */
  state?: { is: LinkState; at: Date };
  /** Only the links of this domain (links/link-key.ts). */
  domainId?: number;
  /** Only the links of this workspace. */
  workspaceId?: number;
  /** Read on the primary even with read replicas: the client asked for what it just wrote (`Cache-Control: no-cache`). */
  fresh?: boolean;
}

/**
 * Where links live. One implementation per engine (Postgres, SQLite); both
 * pass the same contract suite (`shortener/test/link-store.contract.test.ts`).
 */
export interface LinkStore extends VisitWriter<CountedDestination> {
  /** Inserts the link, or returns null when its code is already taken. */
  insert(link: NewLink): Promise<Link | null>;
  /**
   * Inserts each link whose code is free, of stored links and of the links
   * before it in `links`, in one statement per `insertManyRows` links, and
   * returns those it inserted, in any order; the others are left out, as
   * `insert` answers null. Concurrent calls over the same codes insert each
   * code once and never deadlock.
   */
  insertMany(links: readonly NewLink[]): Promise<Link[]>;
  find(code: string): Promise<Link | null>;
  /** The link whose manage token has this SHA-256 (hex), or null; at most one has it. */
  findByManageTokenHash(hash: string): Promise<Link | null>;
  /**
   * Replaces what `changes` names (the long URL, options, hold); null when there is no such link, or (with `heldAs`)
   * when its hold is no longer that one: a compare-and-set, for the threat recheck, which judged an older read.
   */
  update(code: string, changes: LinkChanges, at: Date, heldAs?: HoldChange): Promise<Link | null>;
  /** True when a link was deleted. */
  delete(code: string): Promise<boolean>;
  /**
   * Lets through as many of each link's visits as its options allow
   * (`grantedVisits`: none once expired or, unless `access.unlocked`, when it
   * has a password; no more than its cap leaves), under the link's row lock,
   * and adds those to its access count, and, when they carry
   * analytics, to its hourly humans/bots bucket and its daily breakdowns
   * (the hour and day of `at`, UTC; a breakdown names at most
   * `namedValuesPerDay` values a day, the rest is "other": named-values.ts),
   * all in one durable transaction, and
   * returns each existing link's claim: its destination and how many of its
   * visits went through (the first ones, `LinkVisits.first`). Visits of
   * links that do not exist are dropped. Concurrent calls from any number of
   * processes never lose an increment. Once `deadline` has aborted the write
   * must not commit (its callers have been told it failed); only a commit
   * already sent when it aborts may still land.
   */
  recordVisits(visits: ReadonlyMap<string, LinkVisits>, at: Date, deadline?: AbortSignal, access?: VisitAccess): Promise<Map<string, VisitClaim>>;
  list(query: LinkQuery): Promise<LinkPage>;
  /**
   * Up to `limit` links whose codes sort after `after` (null: from the
   * first), in code order (bytes, as both engines compare codes): an export
   * reads every link (or workspace `workspaceId`'s) page by page on the
   * primary key, in constant memory, and a link created meanwhile is either
   * in a later page or not at all.
   */
  exportPage(after: string | null, limit: number, workspaceId?: number): Promise<Link[]>;
  /** The links with these codes that exist, in any order. */
  findMany(codes: readonly string[]): Promise<Link[]>;
  /** Up to `limit` keys of an added domain's links (links/link-key.ts), in key order: what deleting the domain deletes first. */
  keysOn(domainId: number, limit: number): Promise<string[]>;
  /**
   * Inserts the imported links whose codes are free, in one transaction,
   * with their counts and dates as given, and answers the codes it
   * inserted. Of two with the same code, the first in `links` is inserted.
   */
  insertImported(links: readonly ImportedLink[]): Promise<string[]>;
}
