import { html, type SafeHtml } from "../../html.ts";
import { confirmQuestionTemplate } from "../confirm-question/view.ts";
import { workspaceLinksParts as ui } from "./parts.ts";

/** The chosen workspace's links: a form that makes one (owners and editors), a search, the table a page at a time, the CSV (script.ts). */
export function workspaceLinksView(mark: SafeHtml): SafeHtml {
  return html`<section id="workspace-links" class="panel" aria-labelledby="workspace-links-title" ${mark}>
  <h2 id="workspace-links-title" tabindex="-1" ${ui.mark("title")}>Links</h2>
  <form id="workspace-link-form" class="inline-form" method="post" novalidate aria-labelledby="workspace-link-form-title" ${ui.mark("createForm")}>
    <h3 id="workspace-link-form-title">New link</h3>
    <div class="field">
      <label for="workspace-long-url">Long URL</label>
      <input id="workspace-long-url" name="long_url" type="text" inputmode="url" autocomplete="off" spellcheck="false" placeholder="example.com/page" aria-describedby="workspace-long-url-error" ${ui.mark("longUrl")}>
      <p id="workspace-long-url-error" class="field-error" role="alert"></p>
    </div>
    <div class="field">
      <label for="workspace-alias">Alias <span class="optional">(optional)</span></label>
      <input id="workspace-alias" name="alias" type="text" autocomplete="off" spellcheck="false" aria-describedby="workspace-alias-error" ${ui.mark("alias")}>
      <p id="workspace-alias-error" class="field-error" role="alert"></p>
    </div>
    <button type="submit" ${ui.mark("create")}>Shorten</button>
  </form>
  <form id="workspace-search" class="inline-form" role="search" aria-label="Search the workspace's links" ${ui.mark("searchForm")}>
    <div class="field">
      <label for="workspace-q">Search</label>
      <input id="workspace-q" name="q" type="search" autocomplete="off" spellcheck="false" placeholder="code, URL or title" ${ui.mark("search")}>
    </div>
    <button type="submit" class="secondary">Search</button>
  </form>
  <p class="export-all"><a href="/admin/export/links?format=csv" download="linkgeo-workspace-links.csv" ${ui.mark("exportLink")}>Download the workspace's links (CSV)</a></p>
  <p id="workspace-links-status" class="message ok" role="status" ${ui.mark("status")}></p>
  <p id="workspace-links-error" class="message error" role="alert" ${ui.mark("error")}></p>
  <div class="table-wrap">
    <table class="link-table workspace-link-table" aria-labelledby="workspace-links-title" ${ui.mark("table")}>
      <thead>
        <tr><th scope="col">Short link</th><th scope="col">Destination</th><th scope="col" class="number">Visits</th><th scope="col">Created</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>
      </thead>
      <tbody ${ui.mark("body")}></tbody>
    </table>
  </div>
  <p class="links-empty muted" hidden ${ui.mark("empty")}>No links yet.</p>
  <nav class="row spread pager" aria-label="Pages of the workspace's links" ${ui.mark("pager")}>
    <button type="button" class="secondary small" ${ui.mark("previous")}>Previous</button>
    <p aria-live="polite" ${ui.mark("pageInfo")}></p>
    <button type="button" class="secondary small" ${ui.mark("next")}>Next</button>
  </nav>
  ${confirmQuestionTemplate(ui.mark("questionTemplate"))}
</section>`;
}
