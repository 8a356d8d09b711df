import { html, type SafeHtml } from "../../html.ts";
import { visitSummaryParts as ui } from "./parts.ts";

/** Visits across every link over the last 30 days, hidden until they come (script.ts). */
export function visitSummaryView(mark: SafeHtml): SafeHtml {
  return html`<section id="visit-summary" class="panel" aria-labelledby="visit-summary-title" hidden ${mark}>
  <h2 id="visit-summary-title">Visits across all links, last 30 days</h2>
  <p id="visit-summary-off" class="message" hidden ${ui.mark("summaryOff")}><strong>Analytics are off on this server.</strong> Each visit is counted in its link's count, but not when, so there is no total over days to show.</p>
  <div id="visit-summary-figures" class="grid" ${ui.mark("summaryFigures")}>
    <dl id="visit-totals" class="stats" ${ui.mark("summaryTotals")}></dl>
    <div>
      <h3 id="top-links-title">Most visited</h3>
      <ol id="top-links" class="ranked" aria-labelledby="top-links-title" ${ui.mark("summaryTop")}></ol>
    </div>
  </div>
</section>`;
}
