import { html, type SafeHtml } from "../../html.ts";
import { linkFiltersParts as ui } from "./parts.ts";

/** The admin table's search, filters, order and rows a page (script.ts keeps them in the address). */
export function linkFiltersView(mark: SafeHtml): SafeHtml {
  return html`<form id="link-filters" class="row link-filters" role="search" aria-label="Links" ${mark}>
  <div class="field grow">
    <label for="link-search">Search</label>
    <input id="link-search" name="q" type="search" autocomplete="off" spellcheck="false" placeholder="Code or destination" ${ui.mark("search")}>
  </div>
  <div class="field">
    <label for="link-tag">Tag</label>
    <input id="link-tag" name="tag" type="search" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="32" placeholder="launch" aria-describedby="link-tag-error" ${ui.mark("tag")}>
    <p id="link-tag-error" class="field-error" role="alert"></p>
  </div>
  <div class="field">
    <label for="link-state">State</label>
    <select id="link-state" name="state" ${ui.mark("state")}>
      <option value="">Any</option>
      <option value="active">Active</option>
      <option value="expired">Expired</option>
      <option value="exhausted">Used up</option>
      <option value="quarantined">Quarantined</option>
      <option value="disabled">Disabled</option>
    </select>
  </div>
  <div class="field">
    <label for="link-sort">Sort by</label>
    <select id="link-sort" name="sort" ${ui.mark("sort")}>
      <option value="newest">Newest</option>
      <option value="most_visited">Most visited</option>
      <option value="last_visited">Last visited</option>
    </select>
  </div>
  <div class="field">
    <label for="link-page-size">Rows per page</label>
    <select id="link-page-size" name="page_size" ${ui.mark("pageSize")}>
      <option value="20">20</option>
      <option value="50">50</option>
      <option value="100">100</option>
    </select>
  </div>
</form>`;
}
