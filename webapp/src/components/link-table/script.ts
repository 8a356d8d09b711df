/**
 * The admin's table of links: a page at a time from `GET /shorten/`, with
 * the search, filters, sort and page in the page's address (Back and
 * Forward step through them), one call for every row's sparkline, a
 * selection (link-selection) and each row's menu (link-row). While the
 * service is down, the outage notice retries the listing by itself.
 */
import { addressOf, dailyVisits, listLinks, type LinkQuery, type LinkRecord, type LinkSort } from "../../client/lib/admin-links.ts";
import { linkName } from "../../client/lib/link-address.ts";
import { queryFromUrl, rememberQuery } from "../../client/lib/admin-query.ts";
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { fill, show } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { plural } from "../../client/lib/format.ts";
import { mount as mountFilters, type LinkFilters } from "../link-filters/script.ts";
import { mount as mountRow, type LinkRow, type RowHost } from "../link-row/script.ts";
import { mount as mountSelection, type Selection } from "../link-selection/script.ts";
import type { Outage } from "../outage-notice/script.ts";
import { linkTableParts } from "./parts.ts";

export interface LinkTableDeps {
  credential(): Credential;
  /** Handles what is not the table's business (the session ended); true when it did. */
  handled(error: unknown): boolean;
  outage: Outage;
  showQr(record: LinkRecord, from: HTMLElement): void;
}

type Parts = FoundParts<typeof linkTableParts.spec>;

export function mount(root: HTMLElement, deps: LinkTableDeps): LinkTable {
  return new LinkTable(findParts(root, linkTableParts), deps);
}

export class LinkTable {
  private query: LinkQuery = queryFromUrl(location.search);
  /** Signed in and shown: Back and Forward change it. */
  private shown = false;
  private loading: AbortController | null = null;
  private readonly filters: LinkFilters;
  private readonly selection: Selection;
  private readonly rowHost: RowHost;
  private readonly sortHeaders: HTMLTableCellElement[];

  constructor(
    private readonly ui: Parts,
    private readonly deps: LinkTableDeps,
  ) {
    this.filters = mountFilters(ui.linksFilters, { query: () => this.query, changed: (change) => this.change({ ...change, page: 1 }) });
    this.selection = mountSelection(ui.linksSelection, { credential: deps.credential, handled: deps.handled, deleted: (text) => this.reloadThenSay(text) });
    this.rowHost = {
      credential: deps.credential,
      handled: deps.handled,
      showQr: deps.showQr,
      announce: (text) => {
        ui.linksStatus.textContent = text;
      },
      deleted: (code) => this.reloadThenSay(`Link ${code} deleted.`),
      filterByTag: (tag) => this.change({ tag, page: 1 }),
      templates: { edit: ui.editTemplate, question: ui.questionTemplate },
    };
    // The column headers that sort: each names the one order it gives (the API's orders are all descending).
    this.sortHeaders = [...ui.linksTable.querySelectorAll<HTMLTableCellElement>("th[data-sort]")];
    for (const header of this.sortHeaders) {
      header.querySelector("button")?.addEventListener("click", () => {
        const sort = header.dataset.sort as LinkSort;
        if (sort !== this.query.sort) this.change({ sort, page: 1 });
      });
    }
    ui.pagePrevious.addEventListener("click", () => this.change({ page: Math.max(1, this.query.page - 1) }));
    ui.pageNext.addEventListener("click", () => this.change({ page: this.query.page + 1 }));
    // Back and Forward: the table as that entry's address says (once shown: signed in).
    addEventListener("popstate", () => {
      if (this.shown) this.fromAddress();
    });
  }

  /** Signed in: the table as the address says. */
  start(): void {
    this.shown = true;
    this.fromAddress();
  }

  /** Signed out: nothing of it stays. */
  clear(): void {
    this.shown = false;
    this.loading?.abort();
    fill(this.ui.linksBody);
    this.ui.linksStatus.textContent = "";
  }

  /** After a change of the admin's (a deletion, an import): the table loads again with it, and only then the status says so. */
  reloadThenSay(text: string): void {
    this.ui.linksTitle.focus();
    void this.load({ fresh: true }).finally(() => {
      this.ui.linksStatus.textContent = text;
    });
  }

  private fromAddress(): void {
    this.filters.cancelTyping();
    this.query = queryFromUrl(location.search);
    this.showQuery();
    void this.load();
  }

  /** A change a person made: a new history entry, so Back brings the table as it was. */
  private change(change: Partial<LinkQuery>): void {
    this.ui.linksStatus.textContent = "";
    this.query = { ...this.query, ...change };
    rememberQuery(this.query, { newEntry: true });
    this.showQuery();
    void this.load();
  }

  private showQuery(): void {
    this.filters.show(this.query);
    for (const header of this.sortHeaders) {
      if (header.dataset.sort === this.query.sort) header.setAttribute("aria-sort", "descending");
      else header.removeAttribute("aria-sort");
    }
  }

  /** `fresh`: after the admin's own change, which the listing must show. */
  private async load({ fresh = false } = {}): Promise<void> {
    this.loading?.abort();
    const controller = new AbortController();
    this.loading = controller;
    rememberQuery(this.query);
    this.ui.linksTable.setAttribute("aria-busy", "true");
    try {
      const list = await listLinks(this.query, controller.signal, fresh);
      const pages = Math.max(1, Math.ceil(list.count / this.query.pageSize));
      if (list.results.length === 0 && this.query.page > pages) {
        // Past the last page (an old URL, or the last row of a page deleted): show the last one.
        this.query = { ...this.query, page: pages };
        return void this.load({ fresh });
      }
      this.deps.outage.answered("links");
      this.ui.linksError.textContent = "";
      this.showRows(list.results, controller.signal);
      this.showPager(list.count, list.count_is_estimate, pages, list.next !== null);
    } catch (error) {
      if (controller.signal.aborted || this.deps.handled(error) || this.deps.outage.retryLater("links", error, () => this.load({ fresh }))) return;
      this.ui.linksError.textContent = error instanceof ApiError ? `The links could not be loaded: ${error.message}` : "The links could not be loaded.";
    } finally {
      if (this.loading === controller) this.ui.linksTable.removeAttribute("aria-busy");
    }
  }

  private showRows(records: readonly LinkRecord[], signal: AbortSignal): void {
    const rows = records.map((record) => mountRow(this.ui.rowTemplate, record, this.rowHost));
    fill(
      this.ui.linksBody,
      rows.map((row) => row.element),
    );
    this.selection.show(rows);
    show(this.ui.linksTable.parentElement!, rows.length > 0);
    show(this.ui.linksEmpty, rows.length === 0);
    if (rows.length > 0) void drawSparklines(rows, signal, this.deps.handled);
  }

  private showPager(count: number, estimate: boolean, pages: number, hasNext: boolean): void {
    const { pageInfo, pagePrevious, pageNext } = this.ui;
    // An estimated count (past 10,000 matches) is said as one; whether a next page exists is always exact.
    pageInfo.textContent = estimate
      ? `Page ${this.query.page} of about ${pages} · about ${plural(count, "link")}`
      : `Page ${this.query.page} of ${pages} · ${plural(count, "link")}`;
    pagePrevious.disabled = this.query.page <= 1;
    pageNext.disabled = !hasNext;
    // A pager button that just became disabled would drop the keyboard focus: hand it to the other one.
    const focused = document.activeElement;
    if (focused === pageNext && pageNext.disabled && !pagePrevious.disabled) pagePrevious.focus();
    if (focused === pagePrevious && pagePrevious.disabled && !pageNext.disabled) pageNext.focus();
  }
}

async function drawSparklines(rows: readonly LinkRow[], signal: AbortSignal, handled: (error: unknown) => boolean): Promise<void> {
  const links = rows.map((row) => addressOf(row.record()));
  try {
    const days = await dailyVisits(links, signal);
    for (const [i, row] of rows.entries()) row.showDailyVisits(days.get(linkName(links[i]!)) ?? null);
  } catch (error) {
    if (signal.aborted || handled(error)) return;
    for (const row of rows) row.showDailyVisits(null);
  }
}
