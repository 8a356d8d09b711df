import { html, type SafeHtml } from "../../html.ts";
import { shortenResultParts as ui } from "./parts.ts";

/**
 * The link just made, shown once (script.ts fills it): the short link and
 * the manage token in read-only fields that wrap rather than cut what they
 * hold (a phone shows the whole of either), Copy, Share where the browser
 * has a share sheet, Open, the QR code with its downloads, and the link's
 * own page.
 */
export function shortenResultView(): SafeHtml {
  return html`<section id="result" class="panel result" aria-labelledby="result-heading" hidden>
<h2 id="result-heading" tabindex="-1" ${ui.mark("heading")}>Your short link is ready</h2>
<div class="result-layout">
<div class="result-main">
<div class="field">
<label for="result-url">Short link</label>
<textarea id="result-url" class="result-url whole-text" rows="1" readonly spellcheck="false" ${ui.mark("url")}></textarea>
<div class="row result-actions">
<button type="button" id="copy-link" ${ui.mark("copyLink")}>Copy</button>
<button type="button" id="share-link" class="secondary" hidden ${ui.mark("share")}>Share</button>
<a id="result-open" class="button secondary" target="_blank" rel="noopener" ${ui.mark("open")}>Open</a>
</div>
<p id="copy-link-status" class="copy-status" aria-live="polite" ${ui.mark("copyLinkStatus")}></p>
</div>
<p class="result-destination">Goes to <span id="result-destination" class="mono" ${ui.mark("destination")}></span></p>
<p id="result-scheme-note" class="hint" hidden ${ui.mark("schemeNote")}>You typed no http:// or https://, so the link uses https://.</p>
<p><a id="result-page" ${ui.mark("linkPage")}>Visits and settings of this link</a></p>
</div>
<figure class="qr-figure">
<div id="qr" class="qr" ${ui.mark("qr")}></div>
<figcaption class="hint">Scan to open the short link</figcaption>
<div class="row">
<a id="download-svg" class="button secondary small" download ${ui.mark("downloadSvg")}>Download SVG</a>
<a id="download-png" class="button secondary small" download ${ui.mark("downloadPng")}>Download PNG</a>
</div>
</figure>
</div>
<div class="token-box" role="group" aria-labelledby="token-heading">
<h3 id="token-heading">Manage token</h3>
<p>Saved in this browser: it lets you change or delete this link. Copy it, or download your links from Your links, to keep it elsewhere.</p>
<label for="token" class="visually-hidden">Manage token</label>
<textarea id="token" class="mono whole-text" rows="1" readonly spellcheck="false" ${ui.mark("token")}></textarea>
<div class="row">
<button type="button" id="copy-token" class="secondary" ${ui.mark("copyToken")}>Copy token</button>
</div>
<p id="copy-token-status" class="copy-status" aria-live="polite" ${ui.mark("copyTokenStatus")}></p>
</div>
</section>`;
}
