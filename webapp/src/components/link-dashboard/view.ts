import { html, type SafeHtml } from "../../html.ts";
import { linkAccessView } from "../link-access/view.ts";
import { linkDeleteView } from "../link-delete/view.ts";
import { linkDestinationView } from "../link-destination/view.ts";
import { linkOptionsFormView } from "../link-options-form/view.ts";
import { linkSummaryView } from "../link-summary/view.ts";
import { qrKitView } from "../qr-kit/view.ts";
import { visitsPanelView } from "../visits-panel/view.ts";
import { linkDashboardParts as ui } from "./parts.ts";

/**
 * One link, as a dashboard: the link's card, its QR code and the forms that
 * change it on one side, its visits on the other (one column on a phone:
 * the card, the visits, then the rest). The same HTML serves every code (the
 * script reads it from the address), so an unknown code is the script's to
 * say. Without the script nothing but the note below is shown; the
 * manage-token form, hidden until the script asks for a token, posts all
 * the same, so a token never lands in an address. `mapUrl`: the world map
 * the visits' countries are shaded on.
 */
export function linkDashboardView(mapUrl: string): SafeHtml {
  return html`<div id="link-page" class="link-page">
<p class="back"><a href="/app/links">Your links</a></p>
<h1 id="link-heading" ${ui.mark("linkHeading")} tabindex="-1">Short link</h1>
<p id="link-status" ${ui.mark("linkStatus")} class="message" role="status">Loading the link…</p>
<noscript><p class="message error">This page shows the link with its script: turn on JavaScript to see it.</p></noscript>
<section id="link-missing" ${ui.mark("linkMissing")} class="panel narrow" aria-labelledby="link-heading" hidden>
<p>It may have been deleted, or the address was mistyped. Check the address, or make a new short link.</p>
<p><a class="button" href="/">Shorten a URL</a></p>
</section>
<section id="link-deleted" ${ui.mark("linkDeleted")} class="panel narrow" aria-labelledby="link-heading" hidden>
<p class="message ok" role="status">The link was deleted: its short link no longer works, for anyone.</p>
<p><a class="button" href="/">Back to the home page</a></p>
</section>
<div id="link-view" ${ui.mark("linkView")} class="link-dashboard" hidden>
${linkSummaryView(ui.mark("summaryRoot"))}
<div class="link-analytics">
${linkAccessView(ui.mark("accessRoot"))}
${visitsPanelView(mapUrl, ui.mark("visitsRoot"))}
</div>
<section id="qr-panel" class="panel qr-panel" aria-labelledby="qr-heading">
<h2 id="qr-heading">QR code</h2>
${qrKitView(ui.mark("qrRoot"))}
</section>
<section id="manage-panel" ${ui.mark("manageRoot")} class="panel manage-panel" aria-labelledby="edit-heading" hidden>
${linkDestinationView(ui.mark("destinationRoot"))}
${linkOptionsFormView(ui.mark("optionsRoot"))}
${linkDeleteView(ui.mark("deleteRoot"))}
</section>
</div>
</div>`;
}
