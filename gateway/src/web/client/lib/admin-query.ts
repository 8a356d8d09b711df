/**
 * The admin table's search, sort and page, kept in the page's own URL
 * (`?q=…&sort=…&page=…`), so a reload or coming back shows the same rows.
 * The URL is the visitor's: anything in it is read as hostile.
 */
import { linkSorts, type LinkQuery, type LinkSort } from "./admin-links.ts";

export const defaultQuery: LinkQuery = { q: "", sort: "newest", page: 1 };

const isSort = (value: string | null): value is LinkSort => (linkSorts as readonly (string | null)[]).includes(value);

export function queryFromUrl(search: string): LinkQuery {
  const params = new URLSearchParams(search);
  const page = Number(params.get("page"));
  const sort = params.get("sort");
  return {
    q: (params.get("q") ?? "").trim().slice(0, 200),
    sort: isSort(sort) ? sort : defaultQuery.sort,
    page: Number.isSafeInteger(page) && page >= 1 ? page : defaultQuery.page,
  };
}

/** The query string for `query`, leaving out what is the default ("" when everything is). */
export function queryString(query: LinkQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.sort !== defaultQuery.sort) params.set("sort", query.sort);
  if (query.page !== defaultQuery.page) params.set("page", String(query.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Writes `query` into the address bar without a new history entry. */
export function rememberQuery(query: LinkQuery): void {
  const url = location.pathname + queryString(query) + location.hash;
  if (url !== location.pathname + location.search + location.hash) history.replaceState(history.state, "", url);
}
