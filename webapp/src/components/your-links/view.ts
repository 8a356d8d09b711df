import { html, type SafeHtml } from "../../html.ts";
import { linkOrders } from "./link-order.ts";
import { yourLinksParts as ui } from "./parts.ts";

/**
 * Every link this browser keeps, as a list (script.ts fills it from the
 * browser's storage, which only a script can read): searched as typed,
 * sorted, twenty a page; each row with its copy button, QR code, state and
 * visits; the links the API no longer has said once above the list, to be
 * forgotten together; and the download of them all, with their tokens.
 */
export function yourLinksView(): SafeHtml {
  const orders = Object.entries(linkOrders).map(([value, label]) => html`<option value="${value}">${label}</option>`);
  return html`<section id="your-links" class="panel" aria-labelledby="your-links-heading">
<h2 id="your-links-heading" class="visually-hidden" tabindex="-1" ${ui.mark("heading")}>Every link of this browser</h2>
<div class="links-tools" hidden ${ui.mark("tools")}>
<form id="links-search-form" class="field links-search" role="search" ${ui.mark("searchForm")}>
<label for="links-search">Search your links</label>
<input id="links-search" type="search" autocomplete="off" autocapitalize="off" spellcheck="false" aria-describedby="links-search-hint" ${ui.mark("search")}>
<p id="links-search-hint" class="hint">Part of a short link or of where it goes.</p>
</form>
<div class="field links-sort">
<label for="links-sort">Sort by</label>
<select id="links-sort" ${ui.mark("sort")}>${orders}</select>
</div>
</div>
<p id="links-summary" class="links-summary" role="status" ${ui.mark("summary")}></p>
<div id="links-deleted" class="message notice" hidden ${ui.mark("deleted")}>
<p ${ui.mark("deletedSays")}></p>
<button type="button" class="secondary small" ${ui.mark("forgetDeleted")}>Forget the deleted link</button>
</div>
<p id="links-forgotten" class="add-status" role="status" ${ui.mark("forgotten")}></p>
<p id="links-empty" class="empty" hidden ${ui.mark("empty")}>No links yet. <a href="/">Shorten a URL</a>, and it is listed here.</p>
<ul id="links-list" class="saved-links" hidden ${ui.mark("list")}></ul>
<nav class="pager" aria-label="Pages of your links" hidden ${ui.mark("pager")}>
<button type="button" class="secondary small" ${ui.mark("previous")}>Previous page</button>
<p aria-live="polite" ${ui.mark("pageStatus")}></p>
<button type="button" class="secondary small" ${ui.mark("next")}>Next page</button>
</nav>
<p id="links-export-row" class="row" hidden ${ui.mark("exportRow")}><a id="links-export" class="button secondary small" download="linkgeo-links.json" ${ui.mark("export")}>Download your links, with their tokens</a></p>
</section>`;
}
