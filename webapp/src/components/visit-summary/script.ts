/** The admin page's "Visits across all links" panel: totals and the most visited links, or that analytics are off. */
import { addressOfName, linkPage } from "../../client/lib/link-address.ts";
import { allVisits, type AllVisits } from "../../client/lib/admin-links.ts";
import { fill, h, show } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { formatCount, plural } from "../../client/lib/format.ts";
import type { Outage } from "../outage-notice/script.ts";
import { visitSummaryParts } from "./parts.ts";

export interface VisitSummaryDeps {
  outage: Outage;
  /** Handles what is not the panel's business (the session ended); true when it did. */
  handled(error: unknown): boolean;
}

export interface VisitSummary {
  load(): Promise<void>;
}

const summaryDays = 30;

export function mount(root: HTMLElement, deps: VisitSummaryDeps): VisitSummary {
  const ui = findParts(root, visitSummaryParts);
  async function load(): Promise<void> {
    try {
      showVisits(ui, await allVisits(new Date(Date.now() - summaryDays * 24 * 60 * 60 * 1000)));
      deps.outage.answered("summary");
      show(root, true);
    } catch (error) {
      // The summary is a nicety: without it the table still does the job.
      if (deps.handled(error) || deps.outage.retryLater("summary", error, load)) return;
      show(root, false);
    }
  }
  return { load };
}

function showVisits(ui: FoundParts<typeof visitSummaryParts.spec>, visits: AllVisits): void {
  // With analytics off on the server a visit is only counted: no totals, no top links.
  const { totals, top } = visits;
  const figures = totals !== null && top !== null;
  show(ui.summaryOff, !figures);
  show(ui.summaryFigures, figures);
  if (!figures) return;
  const stat = (label: string, n: number) => h("div", { class: "stat" }, h("dt", {}, label), h("dd", {}, formatCount(n)));
  fill(ui.summaryTotals, stat("Visits", totals.visits), stat("Humans", totals.humans), stat("Bots", totals.bots));
  const links = top.links.slice(0, 5);
  fill(
    ui.summaryTop,
    links.length === 0
      ? h("li", { class: "muted" }, "No visits yet.")
      : links.map(({ value, visits: n }) =>
          h(
            "li",
            {},
            // "other" sums the links below the top ones; it has no page.
            value === "other" ? h("span", {}, "Other links") : h("a", { href: linkPage(addressOfName(value)), class: "mono" }, value),
            h("span", {}, plural(n, "visit")),
          ),
        ),
  );
}
