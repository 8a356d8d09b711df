/** The API calls of the admin page: every link, a page at a time, and what an admin may do to one. */
import { api, type Credential } from "./api.ts";
import type { LinkState } from "./link-options.ts";

export interface LinkRecord {
  short_url: string;
  long_url: string;
  link: string;
  /** For people: what the link is (null without one). */
  title: string | null;
  access_count: number;
  created_at: string;
  updated_at: string;
  last_accessed_at: string | null;
  state: LinkState;
  password_protected: boolean;
  tags: string[];
}

export interface LinkList {
  count: number;
  /** Past 10,000 matches the count is the shortener's estimate. */
  count_is_estimate: boolean;
  next: string | null;
  previous: string | null;
  results: LinkRecord[];
}

export const linkSorts = ["newest", "most_visited", "last_visited"] as const;
export type LinkSort = (typeof linkSorts)[number];

export const linkStates = ["active", "expired", "exhausted"] as const;

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

const encode = encodeURIComponent;

/** `fresh`: right after the admin's own change, so the listing must have it (not a read replica's copy a moment old). */
export function listLinks(query: LinkQuery, signal?: AbortSignal, fresh = false): Promise<LinkList> {
  const params = new URLSearchParams({ sort: query.sort, page: String(query.page), page_size: String(query.pageSize) });
  if (query.q) params.set("q", query.q);
  if (query.tag) params.set("tag", query.tag);
  if (query.state) params.set("state", query.state);
  return api<LinkList>(`/shorten/?${params}`, { signal, fresh });
}

/** Visits per day of each link, oldest day first: one call for the whole page of links. */
export async function dailyVisits(codes: readonly string[], signal?: AbortSignal): Promise<Map<string, number[]>> {
  const params = new URLSearchParams({ codes: codes.join(","), days: String(sparklineDays) });
  // `links` is null with analytics off on the server: no row then has counts to draw.
  const body = await api<{ links: Record<string, unknown> | null }>(`/admin/visits/daily/?${params}`, { signal });
  const days = new Map<string, number[]>();
  for (const code of codes) {
    const counts = body.links?.[code];
    if (Array.isArray(counts) && counts.every((n) => typeof n === "number" && Number.isFinite(n))) days.set(code, counts);
  }
  return days;
}

export function changeDestination(code: string, longUrl: string, credential: Credential): Promise<LinkRecord> {
  return api<LinkRecord>(`/shorten/${encode(code)}/`, { method: "PUT", body: { long_url: longUrl }, credential });
}

export function deleteLink(code: string, credential: Credential): Promise<void> {
  return api<void>(`/shorten/${encode(code)}/`, { method: "DELETE", credential });
}

export interface VisitTotals {
  visits: number;
  humans: number;
  bots: number;
}

/** With analytics off on the server a visit is only counted: the report has no numbers, and says why. */
export type AllVisits =
  | { analytics: "on"; totals: VisitTotals; top: { links: { value: string; visits: number }[] } }
  | { analytics: "off"; totals: null; top: null };

/** Visits across every link since `from`, with the most visited links. */
export function allVisits(from: Date, signal?: AbortSignal): Promise<AllVisits> {
  return api<AllVisits>(`/admin/visits/?${new URLSearchParams({ from: from.toISOString() })}`, { signal });
}
