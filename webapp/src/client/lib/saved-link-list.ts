/**
 * Saved links as a list (the home page's latest, the Your links page's
 * every one): each item links to the link's page and shows its visits,
 * read for the whole list in one request per 500 links, or marks a link
 * that no longer exists, with a button to forget it.
 */
import { api } from "./api.ts";
import { fill, h } from "./dom.ts";
import { formatDateTime, plural } from "./format.ts";
import { readableUrl } from "./readable-url.ts";
import { forgetLink, type SavedLink } from "./saved-links.ts";

interface LinkStats {
  short_url: string;
  access_count: number;
  last_accessed_at: string | null;
}

/** As many codes as POST /shorten/stats/ takes in one request (the API's documented limit). */
const maxStatsCodes = 500;

export const linkPage = (code: string) => `/app/links/${encodeURIComponent(code)}`;

/**
 * Fills `list` with one item per link (the item's `data-code` is the link's
 * code), then their counts. `forgotten` is told when a person forgets a
 * deleted link: the page lists again and puts the focus back.
 */
export async function showSavedLinks(list: HTMLElement, links: readonly SavedLink[], forgotten: () => void): Promise<void> {
  const items = links.map((link) => savedLinkItem(link, forgotten));
  fill(
    list,
    items.map((item) => item.element),
  );
  // Every count in one request (POST /shorten/stats/, up to 500 codes each): a long list does not spend the rate budget.
  const counts = new Map<string, LinkStats>();
  try {
    for (let start = 0; start < links.length; start += maxStatsCodes) {
      const codes = links.slice(start, start + maxStatsCodes).map((link) => link.short_url);
      const { results } = await api<{ results: LinkStats[] }>("/shorten/stats/", { method: "POST", body: { short_urls: codes } });
      for (const stats of results) counts.set(stats.short_url, stats);
    }
  } catch {
    for (const item of items) item.showCount(undefined);
    return;
  }
  for (const [i, item] of items.entries()) item.showCount(counts.get(links[i]!.short_url) ?? null);
}

function savedLinkItem(link: SavedLink, forgotten: () => void): { element: HTMLLIElement; showCount: (stats: LinkStats | null | undefined) => void } {
  const count = h("p", { class: "saved-link-count" }, h("span", { class: "muted" }, "Counting…"));
  const element = h(
    "li",
    { class: "saved-link", "data-code": link.short_url },
    h(
      "div",
      { class: "saved-link-main" },
      h(
        "a",
        { class: "saved-link-title", href: linkPage(link.short_url) },
        link.link.replace(/^https?:\/\//, ""),
        h("span", { class: "visually-hidden" }, ": visits and settings"),
      ),
      h("p", { class: "saved-link-destination truncate", title: link.long_url }, readableUrl(link.long_url)),
      h("p", { class: "hint" }, `Created ${formatDateTime(link.created_at)}`),
    ),
    count,
  );
  /** Its stats; null: no such link any more (deleted); undefined: the counts could not be read. */
  const showCount = (stats: LinkStats | null | undefined) => {
    if (stats) {
      fill(count, h("span", { class: "count" }, plural(stats.access_count, "visit")));
    } else if (stats === null) {
      const forget = h("button", { type: "button", class: "secondary small", "aria-label": `Forget ${link.short_url}` }, "Forget");
      forget.addEventListener("click", () => {
        forgetLink(link.short_url);
        forgotten();
      });
      fill(count, h("span", { class: "badge deleted" }, "deleted"), forget);
    } else {
      fill(count, h("span", { class: "muted" }, "count unavailable"));
    }
  };
  return { element, showCount };
}
