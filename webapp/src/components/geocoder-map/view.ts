import { html, type SafeHtml } from "../../html.ts";
import { geocoderMapParts as ui } from "./parts.ts";

/**
 * "Pick a point": the frame the script draws the world map in, fetched from
 * `mapUrl` (its fingerprinted URL, cached for a year, 66 KB gzipped) rather
 * than inlined, where every visit would download its 200 KB again. The zoom
 * controls stay hidden until the map is there. `rootMark` marks the
 * component's root as a part of the component it is placed in.
 */
export function geocoderMapView(mapUrl: string, rootMark: SafeHtml): SafeHtml {
  return html`<section class="panel map-panel" aria-labelledby="map-heading" ${rootMark}>
<h2 id="map-heading">Pick a point</h2>
<div id="world-map" class="map-frame" data-map-url="${mapUrl}" ${ui.mark("frame")}>
<p class="map-note muted">Loading the map…</p>
</div>
<div class="row map-controls" hidden ${ui.mark("controls")}>
<button type="button" id="map-zoom-in" class="secondary small" ${ui.mark("zoomIn")}>Zoom in</button>
<button type="button" id="map-zoom-out" class="secondary small" ${ui.mark("zoomOut")}>Zoom out</button>
<button type="button" id="map-whole-world" class="secondary small" ${ui.mark("wholeWorld")}>Whole world</button>
<p id="map-zoom" class="hint" aria-live="polite" ${ui.mark("zoomNote")}></p>
</div>
<p id="map-hint" class="hint">Clicking the map fills in its coordinates below and looks them up. Drag it, or use the arrow keys, to move; the wheel, + and − or the buttons zoom; with the map focused, Enter looks up the point at its centre.</p>
</section>`;
}
