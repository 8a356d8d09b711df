import { html, type SafeHtml } from "../../html.ts";
import { placeSearchParts as ui } from "./parts.ts";

/**
 * A search for a place by name (script.ts): a combobox whose suggestions
 * come from `GET /geocode` as one types, chosen with the arrow keys and
 * Enter, or a click. Works with LOCAL, offline.
 */
export function placeSearchView(): SafeHtml {
  return html`<section id="place-search-panel" class="panel search-panel" aria-labelledby="search-heading">
<h2 id="search-heading">Find a place</h2>
<div class="field combobox">
<label for="place-search">Place</label>
<div class="combobox-box">
<input id="place-search" type="text" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="place-suggestions" autocomplete="off" spellcheck="false" maxlength="200" placeholder="Paris, TX" aria-describedby="place-search-hint" ${ui.mark("input")}>
<ul id="place-suggestions" class="suggestions" role="listbox" aria-label="Places" hidden ${ui.mark("list")}></ul>
</div>
<span id="place-search-hint" class="hint">A town, with its region or country if you like (Springfield IL, London Ontario). Typos are forgiven.</span>
</div>
<p id="place-search-status" class="muted" role="status" ${ui.mark("status")}></p>
</section>`;
}
