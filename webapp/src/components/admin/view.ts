import { html, type SafeHtml } from "../../html.ts";
import { signInView } from "../sign-in/view.ts";
import { apiKeysView } from "../api-keys/view.ts";
import { domainsView } from "../domains/view.ts";
import { reportQueueView } from "../report-queue/view.ts";
import { linkImportView } from "../link-import/view.ts";
import { linkTableView } from "../link-table/view.ts";
import { outageNoticeView } from "../outage-notice/view.ts";
import { qrDialogView } from "../qr-dialog/view.ts";
import { visitSummaryView } from "../visit-summary/view.ts";
import { adminParts as ui } from "./parts.ts";

/**
 * The admin page. Both views start hidden: the script asks
 * `GET /admin/session` who is signed in, then shows the sign-in form or the
 * reports' queue, the links, the import, the API keys and the domains.
 */
export function adminView(): SafeHtml {
  return html`<div id="admin" class="admin">
<h1>Admin</h1>
<p id="admin-checking" class="muted" role="status" ${ui.mark("checking")}>Checking whether you are signed in…</p>
<noscript><p class="message error">The admin page needs JavaScript.</p></noscript>
<p id="admin-failure" class="message error" role="alert" ${ui.mark("failure")}></p>
${outageNoticeView(ui.mark("outage"))}
${signInView(ui.mark("signIn"))}
<div id="admin-view" hidden ${ui.mark("adminView")}>
  <div class="row spread admin-bar">
    <p id="admin-who" tabindex="-1" ${ui.mark("who")}>Signed in as <strong id="admin-username" ${ui.mark("adminName")}></strong></p>
    <button type="button" id="sign-out" class="secondary small" ${ui.mark("signOut")}>Sign out</button>
  </div>
  <p id="sign-out-error" class="message error" role="alert" ${ui.mark("signOutError")}></p>
  ${visitSummaryView(ui.mark("summary"))}
  ${reportQueueView(ui.mark("reports"))}
  ${linkTableView(ui.mark("links"))}
  ${qrDialogView(ui.mark("qrDialog"))}
  ${linkImportView(ui.mark("linkImport"))}
  ${apiKeysView(ui.mark("apiKeys"))}
  ${domainsView(ui.mark("domains"))}
</div>
</div>`;
}
