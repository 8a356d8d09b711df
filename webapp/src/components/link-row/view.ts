import { html, type SafeHtml } from "../../html.ts";
import { actionMenuView } from "../action-menu/view.ts";
import { cellsUnderPanel, linkRowParts as ui } from "./parts.ts";

/**
 * One link of the admin table, as a `<template>` the script copies for each
 * (script.ts fills it): its box for the selection, short link and badges,
 * title, destination (host first, then the rest, never cut to a few
 * characters), tags, counts, dates, sparkline, and one menu of what can be
 * done to it. `data-label` names each value when the row is a card.
 */
export function linkRowTemplate(mark: SafeHtml): SafeHtml {
  const items = html`<a role="menuitem" ${ui.mark("rowOpen")}>Open its page</a>
<button type="button" role="menuitem" ${ui.mark("rowCopy")}>Copy short link</button>
<button type="button" role="menuitem" ${ui.mark("rowQr")}>QR code</button>
<button type="button" role="menuitem" ${ui.mark("rowEdit")}>Edit destination</button>
<button type="button" role="menuitem" class="delete" ${ui.mark("rowDelete")}>Delete</button>`;
  return html`<template ${mark}><tr>
  <td class="select"><input type="checkbox" class="select-link" ${ui.mark("rowSelect")}></td>
  <td class="code" data-label="Short link"><a class="mono" ${ui.mark("rowCode")}></a><p class="badges" ${ui.mark("rowBadges")} hidden></p></td>
  <td class="title" data-label="Title" ${ui.mark("rowTitle")}></td>
  <td class="destination" data-label="Destination" ${ui.mark("rowDestination")}></td>
  <td class="tags" data-label="Tags" ${ui.mark("rowTags")}></td>
  <td class="number" data-label="Visits" ${ui.mark("rowVisits")}></td>
  <td data-label="Created" ${ui.mark("rowCreated")}></td>
  <td data-label="Last visited" ${ui.mark("rowLastVisit")}></td>
  <td class="spark" data-label="Last 14 days" ${ui.mark("rowSpark")}><span class="muted">…<span class="visually-hidden"> loading</span></span></td>
  <td class="row-panel" colspan="${cellsUnderPanel.length}" ${ui.mark("rowPanel")} hidden></td>
  <td class="actions" ${ui.mark("rowActions")}>${actionMenuView(items)}</td>
</tr></template>`;
}
