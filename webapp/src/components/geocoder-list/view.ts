import { html, type SafeHtml } from "../../html.ts";
import { geocoderListParts as ui } from "./parts.ts";

/** The geocoders the server has (GET /geocoders), filled in by the script; busy until then. */
export function geocoderListView(): SafeHtml {
  return html`<section id="geocoders-panel" class="panel" aria-labelledby="geocoders-heading">
<h2 id="geocoders-heading">Registered geocoders</h2>
<div class="message error" role="alert" ${ui.mark("error")}></div>
<ul id="geocoder-list" class="geocoder-list" aria-busy="true" ${ui.mark("list")}><li class="muted">Loading…</li></ul>
</section>`;
}
