import { html, type SafeHtml } from "../../html.ts";
import { reportQueueParts as ui } from "./parts.ts";

/** The reports' queue (script.ts): links people reported as harmful, newest first, each with what an admin may do about it. */
export function reportQueueView(mark: SafeHtml): SafeHtml {
  return html`<section id="reports" class="panel" aria-labelledby="reports-title" ${mark}>
  <h2 id="reports-title" tabindex="-1" ${ui.mark("title")}>Reports</h2>
  <p class="hint">Links people reported as harmful. Quarantine shows visitors a warning instead of the destination; disable makes the link gone; ban the domain refuses every link to it; revoke the key stops the program that made it. Each but revoking a key closes the link's reports.</p>
  <p id="reports-status" class="message ok" role="status" ${ui.mark("status")}></p>
  <p id="reports-error" class="message error" role="alert" ${ui.mark("error")}></p>
  <div class="table-wrap">
    <table id="reports-table" class="link-table reports-table" aria-labelledby="reports-title" ${ui.mark("table")}>
      <thead>
        <tr><th scope="col">Reported</th><th scope="col">Why</th><th scope="col">Link</th><th scope="col">Made by</th><th scope="col">Actions</th></tr>
      </thead>
      <tbody id="reports-body" ${ui.mark("body")}></tbody>
    </table>
  </div>
  <p class="links-empty muted" hidden ${ui.mark("empty")}>No report is waiting.</p>
</section>`;
}
