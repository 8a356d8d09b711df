import { html, type SafeHtml } from "../../html.ts";
import { linkDeleteParts as ui } from "./parts.ts";

/** "Delete this link": a button that asks a second time, on the page (never a browser `confirm()`); `rootPart` marks its root for the page that holds it. */
export function linkDeleteView(rootPart: SafeHtml | null = null): SafeHtml {
  return html`<div class="link-delete" ${rootPart}>
<h2 id="delete-heading" class="delete-heading">Delete this link</h2>
<p>The short link stops working at once, for everyone, and its visits are deleted with it. This cannot be undone.</p>
<p><button type="button" id="delete-button" ${ui.mark("deleteButton")} class="danger" aria-expanded="false" aria-controls="delete-confirm">Delete this link…</button></p>
<div id="delete-confirm" ${ui.mark("deleteConfirm")} class="delete-confirm" role="group" aria-labelledby="delete-question" hidden>
<p id="delete-question"><strong>Are you sure?</strong> Delete <span id="delete-what" ${ui.mark("deleteWhat")} class="mono"></span> for good?</p>
<div class="row">
<button type="button" id="delete-yes" ${ui.mark("deleteYes")} class="danger">Delete</button>
<button type="button" id="delete-no" ${ui.mark("deleteNo")} class="secondary">Cancel</button>
</div>
</div>
<p id="delete-error" ${ui.mark("deleteError")} class="message error" role="alert"></p>
</div>`;
}
