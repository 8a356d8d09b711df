import { html, type SafeHtml } from "../../html.ts";
import { auditLogParts as ui } from "./parts.ts";

/** A workspace's audit log, newest first, older events on demand, the whole log as a file (script.ts): for its owners. */
export function auditLogView(mark: SafeHtml): SafeHtml {
  return html`<section id="audit-log" class="panel" aria-labelledby="audit-title" ${mark}>
  <h2 id="audit-title">Audit log</h2>
  <p class="hint">Who did what to the workspace's links, keys and members, and when. The log keeps its newest 10,000 events.</p>
  <p class="export-all"><a href="/admin/audit?format=csv" download="linkgeo-audit.csv" ${ui.mark("fileLink")}>Download the whole log (CSV)</a></p>
  <p id="audit-error" class="message error" role="alert" ${ui.mark("error")}></p>
  <div class="table-wrap">
    <table class="link-table audit-table" aria-labelledby="audit-title" ${ui.mark("table")}>
      <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">To what</th></tr></thead>
      <tbody ${ui.mark("body")}></tbody>
    </table>
  </div>
  <p class="links-empty muted" hidden ${ui.mark("empty")}>Nothing has happened here yet.</p>
  <button type="button" class="secondary small" hidden ${ui.mark("older")}>Older events</button>
</section>`;
}
