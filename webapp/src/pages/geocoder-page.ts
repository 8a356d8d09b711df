import { geocoderListView } from "../components/geocoder-list/view.ts";
import { manyPointsView } from "../components/many-points/view.ts";
import { pointLookupView } from "../components/point-lookup/view.ts";
import { html } from "../html.ts";
import type { Page } from "../page-shell.ts";
import type { WebAssets } from "../web-assets.ts";

/** The geocoder playground: one point (map and form), many points, and the geocoders the server has. */
export function geocoderPage(assets: WebAssets): Page {
  return {
    title: "Geocoder playground",
    current: "geocoder",
    script: "geocoder",
    main: html`<h1>Geocoder playground</h1>
<p class="lead">Find the address at a point on Earth: click the map, or type the coordinates. Each lookup is a call to <code>GET /reverse-geocode</code>, the same as any client makes.</p>

${pointLookupView(assets.staticUrl("world-map.svg"))}

${manyPointsView()}

${geocoderListView()}`,
  };
}
