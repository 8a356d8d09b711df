import { html, type SafeHtml } from "../../html.ts";
import { geocoderMapView } from "../geocoder-map/view.ts";
import { pointLookupParts as ui } from "./parts.ts";

/** The map (components/geocoder-map), the coordinates to look up, and the address found there. */
export function pointLookupView(mapUrl: string): SafeHtml {
  return html`<div id="point-lookup" class="geocoder-layout">
${geocoderMapView(mapUrl, ui.mark("map"))}

<section class="panel query-panel" aria-labelledby="query-heading">
<h2 id="query-heading">Coordinates</h2>
<form novalidate ${ui.mark("form")}>
<div class="query-fields">
<div class="field">
<label for="latitude">Latitude</label>
<input id="latitude" name="latitude" type="text" inputmode="decimal" autocomplete="off" spellcheck="false" aria-describedby="latitude-hint" required ${ui.mark("latitude")}>
<span id="latitude-hint" class="hint">−90 (south) to 90 (north), or paste both: 48.8566, 2.3522</span>
</div>
<div class="field">
<label for="longitude">Longitude</label>
<input id="longitude" name="longitude" type="text" inputmode="decimal" autocomplete="off" spellcheck="false" aria-describedby="longitude-hint" required ${ui.mark("longitude")}>
<span id="longitude-hint" class="hint">−180 (west) to 180 (east)</span>
</div>
<div class="field whole-row-on-phone">
<label for="platform">Provider</label>
<select id="platform" name="platform" aria-describedby="platform-hint" ${ui.mark("platform")}>
<option value="">Default chain</option>
</select>
<span id="platform-hint" class="hint">The default chain tries them in the server's order.</span>
</div>
<div class="field whole-row-on-phone">
<label for="language">Language <span class="muted">(optional)</span></label>
<input id="language" name="language" type="text" maxlength="35" autocomplete="off" autocapitalize="off" spellcheck="false" aria-describedby="language-hint" ${ui.mark("language")}>
<span id="language-hint" class="hint">A tag such as en, de or pt-BR.</span>
</div>
</div>
<button type="submit">Find the address</button>
</form>
</section>

<section id="result-panel" class="panel result-panel" aria-labelledby="result-heading" ${ui.mark("resultPanel")}>
<h2 id="result-heading">Address</h2>
<p id="geocode-status" class="muted" role="status" ${ui.mark("status")}>Click the map or enter coordinates to see the address there.</p>
<div id="geocode-error" class="message error" role="alert" ${ui.mark("error")}></div>
<div id="geocode-result" ${ui.mark("result")}></div>
</section>
</div>`;
}
