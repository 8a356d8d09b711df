import { html, type SafeHtml } from "../../html.ts";
import { confirmQuestionTemplate } from "../confirm-question/view.ts";
import { destinationEditTemplate } from "../destination-edit/view.ts";
import { linkFiltersView } from "../link-filters/view.ts";
import { linkRowTemplate } from "../link-row/view.ts";
import { linkSelectionView } from "../link-selection/view.ts";
import { linkTableParts as ui } from "./parts.ts";

/** Every link, a page at a time, with search, filters, sort, a selection and each row's menu (script.ts). */
export function linkTableView(mark: SafeHtml): SafeHtml {
  return html`<section id="links" class="panel" aria-labelledby="links-title" ${mark}>
  <h2 id="links-title" tabindex="-1" ${ui.mark("linksTitle")}>Links</h2>
  ${linkFiltersView(ui.mark("linksFilters"))}
  <p class="export-all"><a href="/admin/export/links?format=csv" download="linkgeo-links.csv">Download every link (CSV)</a></p>
  <p id="links-status" class="message ok" role="status" ${ui.mark("linksStatus")}></p>
  <p id="links-error" class="message error" role="alert" ${ui.mark("linksError")}></p>
  ${linkSelectionView(ui.mark("linksSelection"))}
  ${tableView()}
  <p id="links-empty" class="links-empty muted" hidden ${ui.mark("linksEmpty")}>No links match.</p>
  <nav class="row spread pager" aria-label="Pages of links">
    <button type="button" id="page-previous" class="secondary small" ${ui.mark("pagePrevious")}>Previous</button>
    <p id="page-info" aria-live="polite" ${ui.mark("pageInfo")}></p>
    <button type="button" id="page-next" class="secondary small" ${ui.mark("pageNext")}>Next</button>
  </nav>
  ${linkRowTemplate(ui.mark("rowTemplate"))}
  ${destinationEditTemplate(ui.mark("editTemplate"))}
  ${confirmQuestionTemplate(ui.mark("questionTemplate"))}
</section>`;
}

/** The table: its columns keep their widths from page to page (the colgroup, admin.css); the headers that sort are buttons. */
function tableView(): SafeHtml {
  return html`<div class="table-wrap">
    <table id="links-table" class="link-table" aria-labelledby="links-title" ${ui.mark("linksTable")}>
      <colgroup>
        <col class="col-select"><col class="col-code"><col class="col-title"><col class="col-destination"><col class="col-tags"><col class="col-visits"><col class="col-when"><col class="col-when"><col class="col-spark"><col class="col-actions">
      </colgroup>
      <thead>
        <tr>
          <th scope="col" class="select"><span class="visually-hidden">Selected</span></th>
          <th scope="col">Short link</th>
          <th scope="col">Title</th>
          <th scope="col">Destination</th>
          <th scope="col">Tags</th>
          <th scope="col" class="number" data-sort="most_visited"><button type="button" class="sort-header">Visits</button></th>
          <th scope="col" data-sort="newest"><button type="button" class="sort-header">Created</button></th>
          <th scope="col" data-sort="last_visited"><button type="button" class="sort-header">Last visited</button></th>
          <th scope="col">Last 14 days</th>
          <th scope="col"><span class="visually-hidden">Actions</span></th>
        </tr>
      </thead>
      <tbody id="links-body" ${ui.mark("linksBody")}></tbody>
    </table>
  </div>`;
}
