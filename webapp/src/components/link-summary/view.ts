import { html, type SafeHtml } from "../../html.ts";
import { linkSummaryParts as ui } from "./parts.ts";

/** `rootPart` marks its root for the page that holds it. The link's card, for anyone: the short link to copy, its state, where it goes, its counts and every option. Filled by the script. */
export function linkSummaryView(rootPart: SafeHtml | null = null): SafeHtml {
  return html`<section id="link-summary" ${rootPart} class="panel link-summary" aria-labelledby="summary-heading">
<h2 id="summary-heading" class="visually-hidden">Summary</h2>
<div class="field">
<label for="short-url">Short link</label>
<div class="copy-row">
<input id="short-url" ${ui.mark("shortUrl")} type="text" readonly>
<button type="button" id="copy-short" ${ui.mark("copyShort")} class="secondary">Copy</button>
</div>
<p id="copy-short-status" ${ui.mark("copyShortStatus")} class="copy-status" aria-live="polite"></p>
</div>
<p id="link-badges" ${ui.mark("badges")} class="badges"></p>
<p id="link-title" ${ui.mark("linkTitle")} class="link-title" hidden></p>
<p class="destination">Goes to <a id="destination" ${ui.mark("destination")} class="mono" rel="noopener noreferrer"></a><span id="destination-hidden" ${ui.mark("destinationHidden")} class="muted" hidden>a destination hidden by the link's password</span></p>
<dl class="stats">
<div class="stat"><dt>Visits</dt><dd id="stat-count" ${ui.mark("visitCount")}></dd></div>
<div class="stat"><dt>Created</dt><dd id="stat-created" ${ui.mark("createdAt")}></dd></div>
<div class="stat"><dt>Last visit</dt><dd id="stat-last" ${ui.mark("lastVisit")}></dd></div>
</dl>
<h3 id="options-summary-heading">Options</h3>
<dl id="link-options" ${ui.mark("optionList")} class="option-list" aria-labelledby="options-summary-heading"></dl>
<p id="access-note" ${ui.mark("accessNote")} class="hint"></p>
</section>`;
}
