/**
 * The home page's latest links (view.ts): the first few this browser keeps,
 * as rows of Your links (copy, QR code, state, visits), the counts read in
 * one request; the rest are on the Your links page.
 */
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { OfferedFiles } from "../../client/lib/offered-files.ts";
import { savedLinkRow, type RowStats } from "../../client/lib/saved-link-row.ts";
import { readLinkStats } from "../../client/lib/saved-link-stats.ts";
import { forgetLink, savedAddress, savedLinks, savedName, type SavedLink } from "../../client/lib/saved-links.ts";
import { latestLinksParts } from "./parts.ts";

/** How many the home page lists. */
const latestShown = 5;

export interface LatestLinks {
  /** Lists them again, from storage: after a link is made or forgotten. */
  refresh(): Promise<void>;
}

type Parts = FoundParts<typeof latestLinksParts.spec>;

export function mount(root: HTMLElement): LatestLinks {
  const parts = findParts(root, latestLinksParts);
  const files = new OfferedFiles();
  // Each refresh is numbered: the counts of an older one, answered late, never draw over a newer list.
  let latestRefresh = 0;
  const refresh = async () => {
    const refreshing = ++latestRefresh;
    const links = savedLinks();
    const latest = links.slice(0, latestShown);
    parts.empty.hidden = links.length > 0;
    parts.list.hidden = links.length === 0;
    parts.all.textContent = links.length > latestShown ? `All ${links.length} of your links` : "Your links";
    parts.allRow.hidden = false;
    draw(parts, latest, () => "counting");
    const stats = await readLinkStats(latest);
    if (refreshing !== latestRefresh) return;
    draw(parts, latest, (name) => (stats ? stats.get(name) : undefined));
  };
  const forget = (link: SavedLink) => {
    forgetLink(savedAddress(link));
    void refresh();
    parts.heading.focus();
  };
  function draw(parts: Parts, links: readonly SavedLink[], statsOf: (name: string) => RowStats): void {
    files.clear();
    parts.list.replaceChildren(...links.map((link) => savedLinkRow(link, statsOf(savedName(link)), { files, forget })));
  }
  return { refresh };
}
