import { html } from "../html.ts";
import type { Page } from "../page-shell.ts";

/** What a person sees for a short link that does not exist, or a page that does not. */
export function notFoundPage(what: "link" | "page"): Page {
  const main =
    what === "link"
      ? html`<section class="panel narrow">
<h1>This short link does not exist</h1>
<p>It may have been deleted, or the address was mistyped. Check the address, or make a new short link.</p>
<p><a class="button" href="/">Shorten a URL</a></p>
</section>`
      : html`<section class="panel narrow">
<h1>Page not found</h1>
<p>There is no page at this address.</p>
<p><a class="button" href="/">Go to the home page</a></p>
</section>`;
  return { title: what === "link" ? "Link not found" : "Page not found", main, status: 404 };
}
