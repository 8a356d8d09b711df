import { html, type SafeHtml } from "../../html.ts";
import { manyPointsParts as ui } from "./parts.ts";

/** Pasted points or a CSV file, looked up in batches by the script; without it, a note that it needs it. */
export function manyPointsView(): SafeHtml {
  return html`<section id="many-panel" class="panel many-panel" aria-labelledby="many-heading">
<h2 id="many-heading">Many points at once</h2>
<p class="hint">Up to 10,000 points, asked 1,000 at a time of <code>POST /reverse-geocode/batch</code> with the provider and language above. For bigger files, <code>bun run geocode</code> in the geocoder's folder.</p>
<noscript><p class="message error">Looking up many points needs the page's script.</p></noscript>
<form class="many-form" novalidate hidden ${ui.mark("form")}>
<div class="field">
<label for="many-points">Points, one a line</label>
<textarea id="many-points" rows="5" autocomplete="off" spellcheck="false" placeholder="48.8566, 2.3522&#10;52.52 13.405" aria-describedby="many-points-hint many-points-error" ${ui.mark("lines")}></textarea>
<p id="many-points-hint" class="hint">As in the coordinate fields: 48.8566, 2.3522 or 48°51′24″N 2°21′08″E.</p>
<p id="many-points-error" class="field-error" role="alert"></p>
</div>
<div class="field">
<label for="many-file">Or a CSV file</label>
<input id="many-file" type="file" accept=".csv,text/csv" aria-describedby="many-file-hint many-file-error" ${ui.mark("file")}>
<p id="many-file-hint" class="hint">Its header names the columns: latitude or lat, longitude, lon or lng. The file wins over the lines.</p>
<p id="many-file-error" class="field-error" role="alert"></p>
</div>
<button type="submit" ${ui.mark("button")}>Look up every point</button>
</form>
<div class="many-result" hidden ${ui.mark("result")}>
<progress id="many-progress" max="1" value="0" aria-labelledby="many-status" ${ui.mark("progress")}></progress>
<p id="many-status" role="status" ${ui.mark("status")}></p>
<ul id="many-problems" class="many-problems" ${ui.mark("problems")}></ul>
<p class="row"><a class="button secondary small" hidden ${ui.mark("csv")}>Download CSV</a><a class="button secondary small" hidden ${ui.mark("geoJson")}>Download GeoJSON</a></p>
<div class="table-wrap"><table class="many-table" hidden ${ui.mark("table")}><caption class="visually-hidden">The first answers</caption>
<thead><tr><th scope="col">Row</th><th scope="col">Point</th><th scope="col">Address</th><th scope="col">Provider</th></tr></thead>
<tbody id="many-rows" ${ui.mark("rows")}></tbody></table></div>
</div>
</section>`;
}
