/**
 * Your links' list (view.ts): every link this browser keeps, with what the
 * API says of each (visits, state) read in one request per 500 links; the
 * search, the order and the page chosen here (link-order.ts) decide which
 * rows are drawn. A link the API no longer has is badged "Deleted" and may
 * be forgotten on its own, or all of them at once from the notice above.
 */
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { plural } from "../../client/lib/format.ts";
import { OfferedFiles } from "../../client/lib/offered-files.ts";
import { savedLinkRow, type RowStats } from "../../client/lib/saved-link-row.ts";
import { readLinkStats, type LinkStats } from "../../client/lib/saved-link-stats.ts";
import { forgetLink, savedAddress, savedLinks, savedName, type SavedLink } from "../../client/lib/saved-links.ts";
import { isLinkOrder, listView, type LinkOrder } from "./link-order.ts";
import { yourLinksParts } from "./parts.ts";

export interface YourLinks {
  /** Reads the links from storage again, and their counts: after links were added. */
  refresh(): Promise<void>;
}

interface List {
  parts: FoundParts<typeof yourLinksParts.spec>;
  links: SavedLink[];
  /** What the API said of each link; "counting" until it answers, undefined when it could not. */
  stats: Map<string, LinkStats | null | undefined> | "counting" | undefined;
  order: LinkOrder;
  page: number;
  rowFiles: OfferedFiles;
  exported: OfferedFiles;
}

export function mount(root: HTMLElement): YourLinks {
  const list: List = {
    parts: findParts(root, yourLinksParts),
    links: [],
    stats: "counting",
    order: "added",
    page: 1,
    rowFiles: new OfferedFiles(),
    exported: new OfferedFiles(),
  };
  const { parts } = list;
  const redraw = (page: number) => {
    list.page = page;
    parts.forgotten.textContent = "";
    draw(list);
  };
  parts.search.addEventListener("input", () => redraw(1));
  parts.searchForm.addEventListener("submit", (event) => event.preventDefault());
  parts.sort.addEventListener("change", () => {
    list.order = isLinkOrder(parts.sort.value) ? parts.sort.value : "added";
    redraw(1);
  });
  const turn = (by: number) => {
    redraw(list.page + by);
    parts.heading.focus();
  };
  parts.previous.addEventListener("click", () => turn(-1));
  parts.next.addEventListener("click", () => turn(1));
  parts.forgetDeleted.addEventListener("click", () => forgetDeleted(list));
  // Each refresh is numbered: the counts of an older one, answered late, never draw over a newer list.
  let latestRefresh = 0;
  return {
    async refresh() {
      const refreshing = ++latestRefresh;
      list.links = savedLinks();
      list.stats = "counting";
      draw(list);
      const stats = await readLinkStats(list.links);
      if (refreshing !== latestRefresh) return;
      list.stats = stats;
      draw(list);
    },
  };
}

/** What the API said of one link (by its `savedName`), as a row shows it. */
function rowStatsOf(list: List, name: string): RowStats {
  if (list.stats === "counting" || list.stats === undefined) return list.stats;
  // A link the map has no word of was never asked: none of this list's.
  return list.stats.has(name) ? list.stats.get(name) : null;
}

/** The links the API no longer has. */
function deletedLinks(list: List): SavedLink[] {
  const { stats } = list;
  return stats instanceof Map ? list.links.filter((link) => stats.get(savedName(link)) === null) : [];
}

function draw(list: List): void {
  const { parts, links } = list;
  const search = parts.search.value;
  const view = listView(links, { search, order: list.order, page: list.page }, (name) => {
    const stats = rowStatsOf(list, name);
    return stats === "counting" ? undefined : stats;
  });
  list.page = view.page;
  parts.tools.hidden = links.length === 0;
  parts.empty.hidden = links.length > 0;
  parts.list.hidden = view.shown.length === 0;
  parts.summary.textContent = summaryOf(links.length, view.matching, search.trim());
  list.rowFiles.clear();
  const rows = view.shown.map((link) => savedLinkRow(link, rowStatsOf(list, savedName(link)), { files: list.rowFiles, forget: (gone) => forget(list, gone) }));
  parts.list.replaceChildren(...rows);
  parts.pager.hidden = view.pages < 2;
  parts.pageStatus.textContent = view.pages < 2 ? "" : `Page ${view.page} of ${view.pages}`;
  parts.previous.disabled = view.page <= 1;
  parts.next.disabled = view.page >= view.pages;
  showDeleted(list);
  offerExport(list);
}

function summaryOf(total: number, matching: number, typed: string): string {
  if (total === 0) return "";
  if (typed === "") return plural(total, "link");
  if (matching === 0) return `No link matches “${typed}”.`;
  return `${matching} of ${plural(total, "link")} match “${typed}”.`;
}

/** The notice above the list: how many links the API no longer has, and the button that forgets them all. */
function showDeleted(list: List): void {
  const gone = deletedLinks(list).length;
  list.parts.deleted.hidden = gone === 0;
  list.parts.deletedSays.textContent =
    gone === 1 ? "1 of your links no longer exists: it was deleted." : `${gone} of your links no longer exist: they were deleted.`;
  list.parts.forgetDeleted.textContent = gone === 1 ? "Forget the deleted link" : `Forget the ${gone} deleted links`;
}

/** Your links as a file (JSON, with the tokens), to keep elsewhere or to add in another browser. */
function offerExport(list: List): void {
  const { parts, links } = list;
  list.exported.clear();
  if (links.length > 0)
    list.exported.offer(parts.export, new Blob([`${JSON.stringify(links, null, 2)}\n`], { type: "application/json" }), "linkgeo-links.json");
  else parts.export.removeAttribute("href");
  parts.exportRow.hidden = links.length === 0;
}

/** One link forgotten: the list without it, the focus back at its top. */
function forget(list: List, gone: SavedLink): void {
  forgetLink(savedAddress(gone));
  list.links = list.links.filter((link) => savedName(link) !== savedName(gone));
  draw(list);
  list.parts.heading.focus();
}

/** Every link the API no longer has, forgotten at once, and said. */
function forgetDeleted(list: List): void {
  const names = new Set(deletedLinks(list).map(savedName));
  for (const link of list.links) if (names.has(savedName(link))) forgetLink(savedAddress(link));
  list.links = list.links.filter((link) => !names.has(savedName(link)));
  draw(list);
  list.parts.forgotten.textContent = `Forgot ${plural(names.size, "deleted link")}.`;
  list.parts.heading.focus();
}
