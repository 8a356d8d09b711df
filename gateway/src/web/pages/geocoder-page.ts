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

<section class="panel" aria-labelledby="geocoders-heading">
<h2 id="geocoders-heading">Registered geocoders</h2>
<div id="geocoders-error" class="message error" role="alert"></div>
<ul id="geocoder-list" class="geocoder-list" aria-busy="true"><li class="muted">Loading…</li></ul>
</section>`,
  };
}
