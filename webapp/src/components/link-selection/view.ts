import { html, type SafeHtml } from "../../html.ts";
import { linkSelectionParts as ui } from "./parts.ts";

/** The box that selects a page of links, and the bar of what can be done to the selected ones (shown once one is). */
export function linkSelectionView(mark: SafeHtml): SafeHtml {
  return html`<div class="link-selection" ${mark}>
  <p class="select-page"><label><input type="checkbox" id="select-page" ${ui.mark("selectPage")}> Select every link on this page</label></p>
  <div id="bulk-bar" class="bulk-bar" role="group" aria-labelledby="bulk-count" hidden ${ui.mark("bulkBar")}>
    <p id="bulk-count" ${ui.mark("bulkCount")}></p>
    <div id="bulk-actions" class="row" ${ui.mark("bulkActions")}>
      <a id="bulk-export" class="button secondary small" download ${ui.mark("bulkExport")}>Download as CSV</a>
      <button type="button" id="bulk-delete" class="secondary small delete" ${ui.mark("bulkDelete")}>Delete</button>
      <button type="button" id="bulk-clear" class="secondary small" ${ui.mark("bulkClear")}>Clear selection</button>
    </div>
    <div id="bulk-confirm" class="confirm-delete" role="group" aria-labelledby="bulk-question" hidden ${ui.mark("bulkConfirm")}>
      <p id="bulk-question" ${ui.mark("bulkQuestion")}></p>
      <p id="bulk-error" class="message error" role="alert" ${ui.mark("bulkError")}></p>
      <div class="row">
        <button type="button" id="bulk-confirm-delete" class="danger small" ${ui.mark("bulkConfirmDelete")}>Yes, delete</button>
        <button type="button" id="bulk-cancel" class="secondary small" ${ui.mark("bulkCancel")}>Cancel</button>
      </div>
    </div>
  </div>
</div>`;
}
