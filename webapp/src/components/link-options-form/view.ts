import { html, type SafeHtml } from "../../html.ts";
import { optionFieldsView } from "../option-fields/view.ts";
import { linkOptionsFormParts as ui } from "./parts.ts";

/** "Change the options": the option fields (`edit-…`), filled from the link, and what saving them said; `rootPart` marks its root for the page that holds it. */
export function linkOptionsFormView(rootPart: SafeHtml | null = null): SafeHtml {
  return html`<div class="link-options-form" ${rootPart}>
<h2 id="options-heading" class="section-heading">Change the options</h2>
<form id="options-form" ${ui.mark("optionsForm")} class="options-form" novalidate>
<p class="hint">An emptied field clears its option when you save.</p>
${optionFieldsView("edit", { editing: true, rootPart: ui.mark("optionFieldsRoot") })}
<button type="submit" id="options-button" ${ui.mark("optionsButton")}>Save options</button>
<p id="options-status" ${ui.mark("optionsStatus")} class="edit-status" role="status"></p>
<p id="options-error" ${ui.mark("optionsError")} class="message error" role="alert"></p>
</form>
</div>`;
}
