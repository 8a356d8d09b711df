import { html, type SafeHtml } from "../../html.ts";
import { confirmQuestionParts as ui } from "./parts.ts";

/**
 * A second question before something that cannot be undone (delete a link,
 * revoke a key), asked in place, never with a browser confirm(): a
 * `<template>` the script copies into the row that asks.
 */
export function confirmQuestionTemplate(mark: SafeHtml): SafeHtml {
  return html`<template ${mark}><div class="confirm-delete" role="group">
  <p ${ui.mark("question")}></p>
  <p class="message error" role="alert" ${ui.mark("questionError")}></p>
  <div class="row">
    <button type="button" class="danger small" ${ui.mark("questionYes")}></button>
    <button type="button" class="secondary small" ${ui.mark("questionNo")}>Cancel</button>
  </div>
</div></template>`;
}
