import { html, type SafeHtml } from "../../html.ts";
import { utmBuilderView } from "../utm-builder/view.ts";
import { linkDestinationParts as ui } from "./parts.ts";

/**
 * "Change the destination": a text field that takes `example.com/page` as
 * well as a full address, with the home page's UTM builder under it (ids
 * `edit-utm-…`); `rootPart` marks its root for the page that holds it.
 */
export function linkDestinationView(rootPart: SafeHtml | null = null): SafeHtml {
  return html`<div class="link-destination" ${rootPart}>
<h2 id="edit-heading">Change the destination</h2>
<form id="edit-form" ${ui.mark("editForm")} novalidate>
<div class="field">
<label for="new-url">New destination</label>
<input id="new-url" ${ui.mark("newUrl")} name="long_url" type="text" required autocomplete="off" inputmode="url" autocapitalize="off" spellcheck="false" placeholder="example.com/a/new/address" aria-describedby="new-url-error">
<p id="new-url-error" class="field-error" role="alert"></p>
</div>
${utmBuilderView("edit-utm", ui.mark("utm"))}
<button type="submit" id="edit-button" ${ui.mark("editButton")}>Save destination</button>
<p id="edit-status" ${ui.mark("editStatus")} class="edit-status" role="status"></p>
</form>
</div>`;
}
