import { html, type SafeHtml } from "../../html.ts";
import { visitsPanelParts as ui } from "./parts.ts";

/**
 * A link's visits: the range and bar size, the humans-only switch, the
 * totals, the chart and the top lists (`mapUrl`: the world map the
 * countries are shaded on). Hidden until the page has a credential that
 * reads them; the component's script fills it. `rootPart` marks its root
 * for the page that holds it.
 */
export function visitsPanelView(mapUrl: string, rootPart: SafeHtml | null = null): SafeHtml {
  return html`<section id="visits-panel" ${rootPart} class="panel visits-panel" aria-labelledby="visits-heading" hidden>
<div class="visits-header">
<h2 id="visits-heading" ${ui.mark("visitsHeading")} tabindex="-1">Visits</h2>
${chartControls()}
</div>
<p id="range-error" class="field-error" ${ui.mark("rangeError")} role="alert"></p>
<p id="visits-error" class="message error" ${ui.mark("visitsError")} role="alert"></p>
<p id="visits-waiting" class="message" ${ui.mark("visitsWaiting")} role="status"></p>
<p id="analytics-off" class="message" ${ui.mark("analyticsOff")} hidden><strong>Analytics are off on this server.</strong> Each visit is counted (the count above), but not when, from where or by whom, so there is no chart or list to show.</p>
<div id="visits-report" ${ui.mark("visitsReport")}>
<div class="row spread visits-summary">
<p id="visits-totals" class="visits-totals" ${ui.mark("visitsTotals")} aria-live="polite"></p>
<p class="row"><span id="visits-live" class="hint" ${ui.mark("visitsLive")}></span><button type="button" id="visits-csv" class="secondary small" ${ui.mark("visitsCsv")}>Download CSV</button></p>
</div>
<p class="legend" aria-hidden="true"><span><span class="swatch humans"></span>Humans</span><span><span class="swatch bots"></span>Bots</span></p>
<p id="chart-filter" class="chart-filter" ${ui.mark("chartFilter")} hidden><span id="chart-filter-text" ${ui.mark("chartFilterText")}></span> <button type="button" id="chart-filter-clear" class="secondary small" ${ui.mark("chartFilterClear")}>Chart every visit</button></p>
<div id="chart" class="chart-box" ${ui.mark("chart")}></div>
<p class="hint">Choose a row of a list to chart its visits alone.</p>
${topLists(mapUrl)}
</div>
</section>`;
}

/** The range (a preset, or two dates), what each bar counts (only the sizes that fit the range are offered), and humans only. */
function chartControls(): SafeHtml {
  return html`<div id="chart-controls" class="chart-controls" ${ui.mark("chartControls")}>
<div class="field">
<label for="range">Range</label>
<select id="range" ${ui.mark("range")}>
<option value="24h">Last 24 hours</option>
<option value="7d" selected>Last 7 days</option>
<option value="30d">Last 30 days</option>
<option value="90d">Last 90 days</option>
<option value="custom">Dates you choose</option>
</select>
</div>
<div id="custom-range" class="custom-range" ${ui.mark("customRange")} hidden>
<div class="field">
<label for="range-from">First day</label>
<input id="range-from" ${ui.mark("rangeFrom")} type="date" aria-describedby="range-error">
</div>
<div class="field">
<label for="range-to">Last day</label>
<input id="range-to" ${ui.mark("rangeTo")} type="date" aria-describedby="range-error">
</div>
</div>
<div class="field">
<label for="granularity">Each bar is</label>
<select id="granularity" ${ui.mark("barSize")} aria-describedby="chart-filter-text">
<option value="hour">an hour</option>
<option value="day" selected>a day (UTC)</option>
<option value="week">a week (UTC, from Monday)</option>
<option value="month">a month (UTC)</option>
</select>
</div>
<label class="switch"><input id="humans-only" ${ui.mark("humansOnly")} type="checkbox" role="switch"> Humans only</label>
</div>`;
}

const lists = [
  ["referrers", "Referrers", "topReferrers"],
  ["countries", "Countries", "topCountries"],
  ["browsers", "Browsers", "topBrowsers"],
  ["os", "Operating systems", "topOs"],
  ["devices", "Devices", "topDevices"],
  ["bots", "Bots", "topBots"],
] as const;

/** The top lists, each under its heading; the countries' with their map. */
function topLists(mapUrl: string): SafeHtml {
  return html`<div class="top-lists">
${lists.map(
  ([list, heading, part]) =>
    html`<section aria-labelledby="top-${list}-heading"><h3 id="top-${list}-heading">${heading}</h3>${
      list === "countries"
        ? html`<div id="top-countries-map" class="country-map" ${ui.mark("countriesMap")} data-map-url="${mapUrl}" aria-hidden="true"></div>`
        : null
    }<div id="top-${list}" ${ui.mark(part)}></div></section>`,
)}
</div>`;
}
