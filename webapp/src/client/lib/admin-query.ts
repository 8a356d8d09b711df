/**
 * The admin table's search, filters, sort and page, kept in the page's own
 * URL (`?q=…&tag=…&state=…&sort=…&page=…&page_size=…`), so a reload or coming back shows the same rows.
 * The URL is the visitor's: anything in it is read as hostile.
 */
import { linkSorts, pageSizes, type LinkQuery, type LinkSort, type PageSize } from "./admin-links.ts";
import { type LinkState, stateNames } from "./link-options.ts";

export const defaultQuery: LinkQuery = { q: "", sort: "newest", page: 1, tag: "", state: "", pageSize: pageSizes[0] };

const isSort = (value: string | null): value is LinkSort => (linkSorts as readonly (string | null)[]).includes(value);
// Every state a badge names is one the filter offers.
const isState = (value: string | null): value is LinkState => value !== null && Object.hasOwn(stateNames, value);
const isPageSize = (value: number): value is PageSize => (pageSizes as readonly number[]).includes(value);

export function queryFromUrl(search: string): LinkQuery {
  const params = new URLSearchParams(search);
  const page = Number(params.get("page"));
  const sort = params.get("sort");
  const state = params.get("state");
  const size = Number(params.get("page_size"));
  const tag = (params.get("tag") ?? "").trim().toLowerCase();
  return {
    q: (params.get("q") ?? "").trim().slice(0, 200),
    // A tag the API could not take is no filter at all.
    tag: /^[a-z0-9_-]{1,32}$/.test(tag) ? tag : "",
    state: isState(state) ? state : "",
    sort: isSort(sort) ? sort : defaultQuery.sort,
    page: Number.isSafeInteger(page) && page >= 1 ? page : defaultQuery.page,
    pageSize: isPageSize(size) ? size : defaultQuery.pageSize,
  };
}

/** The query string for `query`, leaving out what is the default ("" when everything is). */
export function queryString(query: LinkQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.tag) params.set("tag", query.tag);
  if (query.state) params.set("state", query.state);
  if (query.sort !== defaultQuery.sort) params.set("sort", query.sort);
  if (query.page !== defaultQuery.page) params.set("page", String(query.page));
  if (query.pageSize !== defaultQuery.pageSize) params.set("page_size", String(query.pageSize));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * Writes `query` into the address bar: as a new history entry when a person
 * changed it (`newEntry`: Back then steps through their pages and searches,
 * without leaving the admin page), else in place (a page past the last one,
 * corrected). Nothing when the address already says it.
 */
export function rememberQuery(query: LinkQuery, { newEntry = false } = {}): void {
  const url = location.pathname + queryString(query) + location.hash;
  if (url === location.pathname + location.search + location.hash) return;
  if (newEntry) history.pushState(null, "", url);
  else history.replaceState(history.state, "", url);
}
