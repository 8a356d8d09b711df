/** The API calls of the admin page: every link, a page at a time, and what an admin may do to one. */
import type { Credential } from "./api.ts";
import { type Answer, call, type QueryParams } from "./api-call.ts";
import type { LinkState } from "./link-options.ts";
import { domainQuery, linkName, type LinkAddress } from "./link-address.ts";

/** A link as the listing gives it: code, destination, title, count, dates, state, protection, tags. */
export type LinkRecord = LinkList["results"][number];

/** A page of the listing: the count (past 10,000 matches the shortener's estimate), the pages before and after, the rows. */
export type LinkList = Answer<"GET /shorten/">;

export type ChangedLink = Answer<"PUT /shorten/{short_url}">;

export const linkSorts = ["newest", "most_visited", "last_visited"] as const;
export type LinkSort = (typeof linkSorts)[number];

export interface LinkQuery {
  q: string;
  sort: LinkSort;
  page: number;
  /** Only the links with this tag ("": any). */
  tag: string;
  /** Only the links in this state ("": any). */
  state: LinkState | "";
  /** Rows a page: one of `pageSizes`. */
  pageSize: PageSize;
}

/** The rows a page may show, the first by default (the API takes 1 to 100). */
export const pageSizes = [20, 50, 100] as const;
export type PageSize = (typeof pageSizes)[number];

/** How many days each row's sparkline covers. */
export const sparklineDays = 14;

/** `fresh`: right after the admin's own change, so the listing must have it (not a read replica's copy a moment old). */
export function listLinks(query: LinkQuery, signal?: AbortSignal, fresh = false): Promise<LinkList> {
  const asked: QueryParams<"GET /shorten/"> = { sort: query.sort, page: query.page, page_size: query.pageSize };
  if (query.q) asked.q = query.q;
  if (query.tag) asked.tag = query.tag;
  if (query.state) asked.state = query.state;
  return call("GET /shorten/", { query: asked, signal, fresh });
}

/** Visits per day of each link, oldest day first, by its name (`host/code`): one call for the whole page of links. */
export async function dailyVisits(links: readonly LinkAddress[], signal?: AbortSignal): Promise<Map<string, number[]>> {
  const names = links.map(linkName);
  // `links` is null with analytics off on the server: no row then has counts to draw.
  const body = await call("GET /admin/visits/daily", { query: { codes: names.join(","), days: String(sparklineDays) }, signal });
  const days = new Map<string, number[]>();
  for (const name of names) {
    const counts = body.links?.[name];
    if (Array.isArray(counts) && counts.every((n) => typeof n === "number" && Number.isFinite(n))) days.set(name, counts);
  }
  return days;
}

/** The link as changed; the PUT's answer has no `last_accessed_at`: the listing's row keeps its own. */
export function changeDestination(link: LinkAddress, longUrl: string, credential: Credential): Promise<ChangedLink> {
  return call("PUT /shorten/{short_url}", { params: { short_url: link.code }, query: domainQuery(link), body: { long_url: longUrl }, credential });
}

export function deleteLink(link: LinkAddress, credential: Credential): Promise<void> {
  return call("DELETE /shorten/{short_url}", { params: { short_url: link.code }, query: domainQuery(link), credential });
}

/** Where a listed link is: its code on its domain (every record names it). */
export function addressOf(record: LinkRecord): LinkAddress {
  return { code: record.short_url, domain: record.domain };
}

/** Visits across every link: with analytics off on the server a visit is only counted, and the report has no numbers. */
export type AllVisits = Answer<"GET /admin/visits">;

/** Visits across every link since `from`, with the most visited links. */
export function allVisits(from: Date, signal?: AbortSignal): Promise<AllVisits> {
  return call("GET /admin/visits", { query: { from: from.toISOString() }, signal });
}
