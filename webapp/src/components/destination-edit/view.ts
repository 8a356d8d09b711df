import { html, type SafeHtml } from "../../html.ts";
import { destinationEditParts as ui } from "./parts.ts";

/**
 * The form that changes a link's destination in its row: a `<template>` the
 * script copies into the row. Its refusal is said under the field, in the
 * form, so it stays inside the row however long it is.
 */
export function destinationEditTemplate(mark: SafeHtml): SafeHtml {
  return html`<template ${mark}><form class="edit-form" novalidate>
  <div class="field">
    <label>New destination for <code ${ui.mark("editCode")}></code>
      <input name="long_url" type="url" inputmode="url" required autocomplete="off" autocapitalize="none" spellcheck="false" ${ui.mark("editInput")}>
    </label>
    <p class="hint">A web address: example.com/page, or with https://.</p>
    <p class="field-error" role="alert"></p>
  </div>
  <div class="row">
    <button type="submit" class="small" ${ui.mark("editSave")}>Save</button>
    <button type="button" class="secondary small" ${ui.mark("editCancel")}>Cancel</button>
  </div>
</form></template>`;
}
