import { html } from "../html.ts";
import type { Page } from "../page-shell.ts";
import { linkOptionFields, type OptionValues } from "./link-option-fields.ts";

/** A shorten form the browser sent by itself (the script did not run), to be shown again as it was typed. */
export interface SentShortenForm extends OptionValues {
  long_url?: string;
  alias?: string;
}

/**
 * Shorten a URL, see the result once (short link, QR code, manage token),
 * and the links this browser keeps. At first sight the form is one field and
 * one button; the alias and every other option wait behind "Customize". client/home.ts fills it in; the form
 * validates in the script (novalidate), so every error is shown in the
 * page's own words, next to its field.
 *
 * The latest links live in this browser's storage, which only the script
 * can read; all of them are on the Your links page (your-links-page.ts).
 *
 * The shorten form posts too (it may carry a link's password): sent by the
 * browser itself, the gateway answers with this page again, `sent` filled in
 * (but the password) and a note that shortening needs the script, so
 * nothing typed is lost and nothing lands in an address.
 */
export function homePage(sent?: SentShortenForm): Page {
  // Shown again as sent: open when anything in it was filled in.
  const customized = sent !== undefined && Object.entries(sent).some(([key, value]) => key !== "long_url" && value);
  const notice = sent
    ? html`<p id="no-script-notice" class="message error" role="alert">Nothing was shortened: shortening needs the page's script. What you typed is kept below, except a password. Turn on JavaScript, then press Shorten.</p>`
    : null;
  return {
    title: "Shorten a URL",
    current: "home",
    script: "home",
    main: html`<h1>Shorten a URL</h1>
<section class="panel" aria-labelledby="shorten-heading">
<h2 id="shorten-heading" class="visually-hidden">New short link</h2>
${notice}
<noscript><p class="message error">Shortening a URL needs the page's script: turn on JavaScript to shorten one.</p></noscript>
<form id="shorten-form" class="shorten-form" method="post" novalidate>
<div class="field url-field">
<label for="long-url">URL to shorten</label>
<input id="long-url" name="long_url" type="text" required autofocus autocomplete="url" inputmode="url" autocapitalize="off" spellcheck="false" placeholder="example.com/a/long/address" value="${sent?.long_url ?? ""}" aria-describedby="long-url-error">
<p id="long-url-error" class="field-error" role="alert"></p>
</div>
<details id="customize" class="more-options"${customized ? html` open` : null}>
<summary>Customize <span class="summary-hint">alias, expiry, password and more</span></summary>
<div class="field alias-field">
<label for="alias">Custom alias <span class="optional">(optional)</span></label>
<input id="alias" name="alias" type="text" minlength="3" maxlength="32" pattern="[A-Za-z0-9_\\-]{3,32}" autocomplete="off" autocapitalize="off" spellcheck="false" value="${sent?.alias ?? ""}" aria-describedby="alias-hint alias-error">
<p id="alias-hint" class="hint">3 to 32 letters, digits, _ or -. Leave it empty for a random code.</p>
<p id="alias-status" class="hint" aria-live="polite"></p>
<p id="alias-suggestions" class="row"></p>
<p id="alias-error" class="field-error" role="alert"></p>
</div>
${linkOptionFields("new", { values: sent })}
</details>
<div class="shorten-submit">
<button type="submit" id="shorten-button">Shorten</button>
</div>
</form>
<p id="shorten-error" class="message error" role="alert"></p>
</section>
<section id="result" class="panel result" aria-labelledby="result-heading" hidden>
<h2 id="result-heading" tabindex="-1">Your short link is ready</h2>
<div class="result-layout">
<div class="result-main">
<div class="field">
<label for="result-url">Short link</label>
<div class="copy-row result-row">
<input id="result-url" class="result-url" type="text" readonly>
<button type="button" id="copy-link">Copy</button>
<button type="button" id="share-link" class="secondary" hidden>Share</button>
<a id="result-open" class="button secondary" target="_blank" rel="noopener">Open</a>
</div>
<p id="copy-link-status" class="copy-status" aria-live="polite"></p>
</div>
<p class="result-destination">Goes to <span id="result-destination" class="mono"></span></p>
<p id="result-scheme-note" class="hint" hidden>You typed no http:// or https://, so the link uses https://.</p>
<p><a id="result-page">Visits and settings of this link</a></p>
</div>
<figure class="qr-figure">
<div id="qr" class="qr"></div>
<figcaption class="hint">Scan to open the short link</figcaption>
<div class="row">
<a id="download-svg" class="button secondary small" download>Download SVG</a>
<a id="download-png" class="button secondary small" download>Download PNG</a>
</div>
</figure>
</div>
<div class="token-box" role="group" aria-labelledby="token-heading">
<h3 id="token-heading">Manage token</h3>
<p>Saved in this browser: it lets you change or delete this link. Copy it, or download your links from Your links, to keep it elsewhere.</p>
<label for="token" class="visually-hidden">Manage token</label>
<div class="copy-row">
<input id="token" class="mono" type="text" readonly>
<button type="button" id="copy-token" class="secondary">Copy token</button>
</div>
<p id="copy-token-status" class="copy-status" aria-live="polite"></p>
</div>
</section>
<section id="your-links" class="panel" aria-labelledby="your-links-heading">
<h2 id="your-links-heading" tabindex="-1">Your latest links</h2>
<p id="links-empty" class="empty" hidden>No links yet. The links you shorten here will be listed here.</p>
<ul id="links-list" class="saved-links" hidden></ul>
<p id="links-all-row" hidden><a id="links-all" href="/app/links">Your links</a>: every link of this browser, to search, download with their tokens, or add one made elsewhere.</p>
<noscript><p class="message error">Your links are kept in this browser by the page's script: turn on JavaScript to see them.</p></noscript>
</section>`,
  };
}
