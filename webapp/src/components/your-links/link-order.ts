/**
 * Which of this browser's links a page of Your links shows: those matching
 * the search, in the order chosen, a page at a time. Pure (no DOM, no
 * storage): the list's script and the unit tests use it alike.
 */
import type { LinkStats } from "../../client/lib/saved-link-stats.ts";
import { linkName } from "../../client/lib/link-address.ts";

/** A saved link as far as the list's order needs it. */
export interface ListedLink {
  short_url: string;
  link: string;
  long_url: string;
  created_at: string;
  /** Its domain's host; absent: the default domain (saved-links.ts). */
  domain?: string;
}

/** A link's counts as the API said them; null: it no longer exists; undefined: not known (yet). */
export type ListedStats = Pick<LinkStats, "access_count" | "last_accessed_at">;

/** The orders, each with its words in the Sort by menu; the first is the default. */
export const linkOrders = {
  added: "Latest added",
  newest: "Newest first",
  oldest: "Oldest first",
  most_visited: "Most visited",
  last_visited: "Last visited",
} as const;
export type LinkOrder = keyof typeof linkOrders;

export const isLinkOrder = (value: string): value is LinkOrder => Object.hasOwn(linkOrders, value);

/** Links a page of the list shows. */
export const linksPerPage = 20;

export interface ListView<Link extends ListedLink> {
  /** How many match the search (all of them without one). */
  matching: number;
  pages: number;
  /** The page shown, 1-based, within 1 … pages. */
  page: number;
  shown: Link[];
}

/** A time as milliseconds, a value that is no time (storage is hostile) as the oldest. */
const timeOf = (iso: string | null | undefined) => {
  const time = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
};

/** Compares numbers, infinities included (a subtraction would make NaN of two). */
const ascending = (a: number, b: number) => (a === b ? 0 : a < b ? -1 : 1);

/**
 * Each order compares two links; ties keep the order they were added in
 * (the sort is stable). A link whose counts are unknown or gone sorts after
 * every counted one.
 */
function comparer(order: LinkOrder, statsOf: (name: string) => ListedStats | null | undefined): ((a: ListedLink, b: ListedLink) => number) | undefined {
  const nameOf = (link: ListedLink) => linkName(link.domain === undefined ? { code: link.short_url } : { code: link.short_url, domain: link.domain });
  const visits = (link: ListedLink) => statsOf(nameOf(link))?.access_count ?? -1;
  const lastVisit = (link: ListedLink) => timeOf(statsOf(nameOf(link))?.last_accessed_at);
  switch (order) {
    case "added":
      return undefined;
    case "newest":
      return (a, b) => ascending(timeOf(b.created_at), timeOf(a.created_at));
    case "oldest":
      return (a, b) => ascending(timeOf(a.created_at), timeOf(b.created_at));
    case "most_visited":
      return (a, b) => ascending(visits(b), visits(a));
    case "last_visited":
      return (a, b) => ascending(lastVisit(b), lastVisit(a));
  }
}

/** Whether `link` matches what was typed: any part of its code, short link or destination, in any case. */
export function matchesSearch(link: ListedLink, typed: string): boolean {
  const wanted = typed.trim().toLowerCase();
  return wanted === "" || [link.short_url, link.link, link.long_url].some((text) => text.toLowerCase().includes(wanted));
}

export function listView<Link extends ListedLink>(
  links: readonly Link[],
  { search, order, page }: { search: string; order: LinkOrder; page: number },
  /** A link's counts by its name (`linkName`: its code, or host/code on another domain). */
  statsOf: (name: string) => ListedStats | null | undefined,
): ListView<Link> {
  const matching = links.filter((link) => matchesSearch(link, search));
  const compare = comparer(order, statsOf);
  const ordered = compare ? [...matching].sort(compare) : matching;
  const pages = Math.max(1, Math.ceil(ordered.length / linksPerPage));
  const shownPage = Math.min(Math.max(1, Math.trunc(page) || 1), pages);
  return { matching: matching.length, pages, page: shownPage, shown: ordered.slice((shownPage - 1) * linksPerPage, shownPage * linksPerPage) };
}
