import { html, type SafeHtml } from "../../html.ts";
import { linkImportParts as ui } from "./parts.ts";

/**
 * Import links from a file (POST /admin/import, docs/migrating.md): a dry
 * run first, that says what would be imported and which rows would not be
 * (their line and why), then the import itself once confirmed (script.ts).
 */
export function linkImportView(mark: SafeHtml): SafeHtml {
  return html`<section id="link-import" class="panel" aria-labelledby="import-title" ${mark}>
  <h2 id="import-title">Import links</h2>
  <p class="hint">From a file: our own export (CSV or NDJSON), any CSV with a URL column (<code>long_url</code> or <code>url</code>), or an export of Bitly, Shlink or YOURLS. The file is checked first: nothing is stored until you confirm. A code already taken is skipped, never overwritten, so importing a file twice changes nothing.</p>
  <form id="import-form" class="import-form" method="post" novalidate ${ui.mark("importForm")}>
    <div class="field">
      <label for="import-file">File</label>
      <input id="import-file" name="file" type="file" accept=".csv,.ndjson,.jsonl,.json,.txt,text/csv,text/plain,application/x-ndjson" aria-describedby="import-file-error" ${ui.mark("importFile")}>
      <p id="import-file-error" class="field-error" role="alert"></p>
    </div>
    <div class="field">
      <label for="import-format">Format</label>
      <select id="import-format" name="format" aria-describedby="import-format-hint" ${ui.mark("importFormat")}>
        <option value="">Told from the file</option>
        <option value="linkgeo-csv">Our export, CSV</option>
        <option value="linkgeo-ndjson">Our export, NDJSON</option>
        <option value="csv">CSV with a URL column</option>
        <option value="bitly">Bitly</option>
        <option value="shlink">Shlink</option>
        <option value="yourls">YOURLS</option>
      </select>
      <p id="import-format-hint" class="hint">Choose one only if the file's first line does not tell.</p>
    </div>
    <button type="submit" ${ui.mark("importCheck")}>Check the file</button>
  </form>
  <p id="import-status" class="message ok" role="status" ${ui.mark("importStatus")}></p>
  <p id="import-error" class="message error" role="alert" ${ui.mark("importError")}></p>
  ${reportView()}
</section>`;
}

/** What a dry run or an import found: the counts, the rows not imported, and what can be done next. */
function reportView(): SafeHtml {
  return html`<div id="import-report" class="import-report" hidden ${ui.mark("importReport")}>
    <h3 id="import-report-title" tabindex="-1" ${ui.mark("importReportTitle")}></h3>
    <dl class="stats" ${ui.mark("importCounts")}></dl>
    <div ${ui.mark("importRefusedBox")}>
      <h4 id="import-refusals-title">Rows not imported</h4>
      <div class="table-wrap">
        <table class="import-refusals" aria-labelledby="import-refusals-title">
          <thead><tr><th scope="col" class="number">Line</th><th scope="col">Short link</th><th scope="col">Why</th></tr></thead>
          <tbody ${ui.mark("importRefusals")}></tbody>
        </table>
      </div>
      <p class="hint" ${ui.mark("importMore")}></p>
    </div>
    <div class="row" ${ui.mark("importConfirmRow")}>
      <button type="button" ${ui.mark("importConfirm")}>Import</button>
      <button type="button" class="secondary" ${ui.mark("importCancel")}>Cancel</button>
    </div>
    <p ${ui.mark("importDoneRow")}><button type="button" class="secondary" ${ui.mark("importAnother")}>Import another file</button></p>
  </div>`;
}
