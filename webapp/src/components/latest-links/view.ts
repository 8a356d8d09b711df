import { html, type SafeHtml } from "../../html.ts";
import { latestLinksParts as ui } from "./parts.ts";

/**
 * The latest of the links this browser keeps, under the shorten form
 * (script.ts lists them from the browser's storage, which only a script can
 * read), and the way to all of them on Your links.
 */
export function latestLinksView(): SafeHtml {
  return html`<section id="your-links" class="panel" aria-labelledby="your-links-heading">
<h2 id="your-links-heading" tabindex="-1" ${ui.mark("heading")}>Your latest links</h2>
<p id="links-empty" class="empty" hidden ${ui.mark("empty")}>No links yet. The links you shorten here will be listed here.</p>
<ul id="links-list" class="saved-links" hidden ${ui.mark("list")}></ul>
<p id="links-all-row" hidden ${ui.mark("allRow")}><a id="links-all" href="/app/links" ${ui.mark("all")}>Your links</a>: every link of this browser, to search, sort, download with their tokens, or add one made elsewhere.</p>
<noscript><p class="message error">Your links are kept in this browser by the page's script: turn on JavaScript to see them.</p></noscript>
</section>`;
}
