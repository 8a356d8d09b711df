import { geocoderListView } from "../components/geocoder-list/view.ts";
import { manyPointsView } from "../components/many-points/view.ts";
import { pointLookupView } from "../components/point-lookup/view.ts";
import { placeSearchView } from "../components/place-search/view.ts";
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
<p class="lead">Find the address at a point on Earth: click the map, type the coordinates, or search a place by name. Each lookup is a call to <code>GET /reverse-geocode</code> (a search, to <code>GET /geocode</code>), the same as any client makes.</p>

${placeSearchView()}

${pointLookupView(assets.staticUrl("world-map.svg"))}

${manyPointsView()}

${geocoderListView()}`,
  };
}
