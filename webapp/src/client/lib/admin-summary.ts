/** The admin page's "Visits across all links" panel: totals and the most visited links, or that analytics are off. */
import type { AllVisits } from "./admin-links.ts";
import { fill, h, show } from "./dom.ts";
import { formatCount, plural } from "./format.ts";

export interface VisitSummaryParts {
  /** The totals and the list, hidden with analytics off. */
  figures: HTMLElement;
  totalsList: HTMLElement;
  topList: HTMLElement;
  /** Says analytics are off, in place of figures that would read as no visits. */
  analyticsOff: HTMLElement;
}

export function showVisitSummary({ figures, totalsList, topList, analyticsOff }: VisitSummaryParts, visits: AllVisits): void {
  show(analyticsOff, visits.analytics === "off");
  show(figures, visits.analytics === "on");
  if (visits.analytics === "off") return;
  const stat = (label: string, n: number) => h("div", { class: "stat" }, h("dt", {}, label), h("dd", {}, formatCount(n)));
  fill(totalsList, stat("Visits", visits.totals.visits), stat("Humans", visits.totals.humans), stat("Bots", visits.totals.bots));

  const links = visits.top.links.slice(0, 5);
  fill(
    topList,
    links.length === 0
      ? h("li", { class: "muted" }, "No visits yet.")
      : links.map(({ value, visits: n }) =>
          h(
            "li",
            {},
            // "other" sums the links below the top ones; it has no page.
            value === "other" ? h("span", {}, "Other links") : h("a", { href: `/app/links/${encodeURIComponent(value)}`, class: "mono" }, value),
            h("span", {}, plural(n, "visit")),
          ),
        ),
  );
}
