import { html } from "../html.ts";
import type { Page } from "../page-shell.ts";
import type { WebAssets } from "../web-assets.ts";

/**
 * The geocoder playground's skeleton. The map is fetched by the script from
 * its fingerprinted URL (cached for a year, 66 KB gzipped) rather than
 * inlined here, where every visit would download its 200 KB again.
 */
export function geocoderPage(assets: WebAssets): Page {
  return {
    title: "Geocoder playground",
    current: "geocoder",
    script: "geocoder",
    main: html`<h1>Geocoder playground</h1>
<p class="lead">Find the address at a point on Earth: click the map, or type the coordinates. Each lookup is a call to <code>GET /reverse-geocode</code>, the same as any client makes.</p>

<div class="geocoder-layout">
<section class="panel map-panel" aria-labelledby="map-heading">
<h2 id="map-heading">Pick a point</h2>
<div id="world-map" class="map-frame" data-map-url="${assets.staticUrl("world-map.svg")}">
<p class="map-note muted">Loading the map…</p>
</div>
<div id="map-controls" class="row map-controls" hidden>
<button type="button" id="map-zoom-in" class="secondary small">Zoom in</button>
<button type="button" id="map-zoom-out" class="secondary small">Zoom out</button>
<button type="button" id="map-whole-world" class="secondary small">Whole world</button>
<p id="map-zoom" class="hint" aria-live="polite"></p>
</div>
<p id="map-hint" class="hint">Clicking the map fills in its coordinates below and looks them up. Drag it, or use the arrow keys, to move; the wheel, + and − or the buttons zoom; with the map focused, Enter looks up the point at its centre.</p>
</section>

<section class="panel query-panel" aria-labelledby="query-heading">
<h2 id="query-heading">Coordinates</h2>
<form id="geocode-form" novalidate>
<div class="query-fields">
<div class="field">
<label for="latitude">Latitude</label>
<input id="latitude" name="latitude" type="text" inputmode="decimal" autocomplete="off" spellcheck="false" aria-describedby="latitude-hint" required>
<span id="latitude-hint" class="hint">−90 (south) to 90 (north), or paste both: 48.8566, 2.3522</span>
</div>
<div class="field">
<label for="longitude">Longitude</label>
<input id="longitude" name="longitude" type="text" inputmode="decimal" autocomplete="off" spellcheck="false" aria-describedby="longitude-hint" required>
<span id="longitude-hint" class="hint">−180 (west) to 180 (east)</span>
</div>
<div class="field whole-row-on-phone">
<label for="platform">Provider</label>
<select id="platform" name="platform" aria-describedby="platform-hint">
<option value="">Default chain</option>
</select>
<span id="platform-hint" class="hint">The default chain tries them in the server's order.</span>
</div>
<div class="field whole-row-on-phone">
<label for="language">Language <span class="muted">(optional)</span></label>
<input id="language" name="language" type="text" maxlength="35" autocomplete="off" autocapitalize="off" spellcheck="false" aria-describedby="language-hint">
<span id="language-hint" class="hint">A tag such as en, de or pt-BR.</span>
</div>
</div>
<button type="submit">Find the address</button>
</form>
</section>

<section id="result-panel" class="panel result-panel" aria-labelledby="result-heading">
<h2 id="result-heading">Address</h2>
<p id="geocode-status" class="muted" role="status">Click the map or enter coordinates to see the address there.</p>
<div id="geocode-error" class="message error" role="alert"></div>
<div id="geocode-result"></div>
</section>
</div>

<section id="many-panel" class="panel many-panel" aria-labelledby="many-heading">
<h2 id="many-heading">Many points at once</h2>
<p class="hint">Up to 10,000 points, asked 1,000 at a time of <code>POST /reverse-geocode/batch</code> with the provider and language above. For bigger files, <code>bun run geocode</code> in the geocoder's folder.</p>
<noscript><p class="message error">Looking up many points needs the page's script.</p></noscript>
<form id="many-form" class="many-form" novalidate hidden>
<div class="field">
<label for="many-points">Points, one a line</label>
<textarea id="many-points" rows="5" autocomplete="off" spellcheck="false" placeholder="48.8566, 2.3522&#10;52.52 13.405" aria-describedby="many-points-hint many-points-error"></textarea>
<p id="many-points-hint" class="hint">As in the coordinate fields: 48.8566, 2.3522 or 48°51′24″N 2°21′08″E.</p>
<p id="many-points-error" class="field-error" role="alert"></p>
</div>
<div class="field">
<label for="many-file">Or a CSV file</label>
<input id="many-file" type="file" accept=".csv,text/csv" aria-describedby="many-file-hint many-file-error">
<p id="many-file-hint" class="hint">Its header names the columns: latitude or lat, longitude, lon or lng. The file wins over the lines.</p>
<p id="many-file-error" class="field-error" role="alert"></p>
</div>
<button type="submit" id="many-button">Look up every point</button>
</form>
<div id="many-result" class="many-result" hidden>
<progress id="many-progress" max="1" value="0" aria-labelledby="many-status"></progress>
<p id="many-status" role="status"></p>
<ul id="many-problems" class="many-problems"></ul>
<p class="row"><a id="many-csv" class="button secondary small" hidden>Download CSV</a><a id="many-geojson" class="button secondary small" hidden>Download GeoJSON</a></p>
<div class="table-wrap"><table id="many-table" class="many-table" hidden><caption class="visually-hidden">The first answers</caption>
<thead><tr><th scope="col">Row</th><th scope="col">Point</th><th scope="col">Address</th><th scope="col">Provider</th></tr></thead>
<tbody id="many-rows"></tbody></table></div>
</div>
</section>

<section class="panel" aria-labelledby="geocoders-heading">
<h2 id="geocoders-heading">Registered geocoders</h2>
<div id="geocoders-error" class="message error" role="alert"></div>
<ul id="geocoder-list" class="geocoder-list" aria-busy="true"><li class="muted">Loading…</li></ul>
</section>`,
  };
}
