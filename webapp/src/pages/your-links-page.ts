import { html } from "../html.ts";
import type { Page } from "../page-shell.ts";

/**
 * Every link this browser keeps, with their counts: searched as typed,
 * downloaded as a file with their tokens, and brought in from another
 * browser (that file) or by one link's manage token. client/links.ts fills
 * it in.
 *
 * The links live in this browser's storage, which only the script can read,
 * so without it nothing here is offered: the forms start hidden and the
 * script shows them once it handles their submits. They post all the same,
 * so that a token can never land in an address or the history, whatever
 * happens to the script.
 */
export const yourLinksPage: Page = {
  title: "Your links",
  current: "links",
  script: "links",
  main: html`<h1>Your links</h1>
<p class="lead">The links made in this browser, with their manage tokens. They are kept in this browser only: clearing its data forgets them, so download them to keep them or to move them to another browser.</p>
<noscript><p class="message error">Your links are kept in this browser by the page's script: turn on JavaScript to see them or to add one.</p></noscript>
<section id="your-links" class="panel" aria-labelledby="your-links-heading">
<h2 id="your-links-heading" class="visually-hidden" tabindex="-1">Every link of this browser</h2>
<form id="links-search-form" class="field links-search" role="search" hidden>
<label for="links-search">Search your links</label>
<input id="links-search" type="search" autocomplete="off" autocapitalize="off" spellcheck="false" aria-describedby="links-search-hint">
<p id="links-search-hint" class="hint">Part of a short link or of where it goes.</p>
</form>
<p id="links-summary" class="links-summary" role="status"></p>
<p id="links-empty" class="empty" hidden>No links yet. <a href="/">Shorten a URL</a>, and it is listed here.</p>
<ul id="links-list" class="saved-links" hidden></ul>
<p id="links-export-row" class="row" hidden><a id="links-export" class="button secondary small" download="linkgeo-links.json">Download your links, with their tokens</a></p>
</section>
<section class="panel" aria-labelledby="bring-heading">
<h2 id="bring-heading">Bring links from elsewhere</h2>
<form id="file-form" class="add-form" method="post" novalidate hidden>
<h3>From another browser</h3>
<div class="field">
<label for="links-file">Links file</label>
<input id="links-file" name="file" type="file" accept=".json,application/json" aria-describedby="links-file-hint links-file-error">
<p id="links-file-hint" class="hint">The file "Download your links, with their tokens" made there (linkgeo-links.json).</p>
<p id="links-file-error" class="field-error" role="alert"></p>
</div>
<button type="submit" id="file-button" class="secondary">Add these links</button>
<p id="file-status" class="add-status" role="status"></p>
</form>
<form id="add-form" class="add-form" method="post" novalidate hidden>
<h3 id="add-heading">One link, by its manage token</h3>
<div class="field">
<label for="add-token">Manage token</label>
<input id="add-token" name="token" type="text" required autocomplete="off" autocapitalize="off" spellcheck="false" aria-describedby="add-token-hint add-token-error">
<p id="add-token-hint" class="hint">The token you were given when you made the link, on another device or with the API.</p>
<p id="add-token-error" class="field-error" role="alert"></p>
</div>
<button type="submit" id="add-button" class="secondary">Add link</button>
<p id="add-status" class="add-status" role="status"></p>
</form>
</section>`,
};
