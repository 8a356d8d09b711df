import { html, type SafeHtml } from "../../html.ts";
import { bringLinksParts as ui } from "./parts.ts";

/**
 * Links brought into this browser: another browser's links file, or one
 * link by its manage token (script.ts). Without the script nothing here is
 * offered: the forms start hidden and the script shows them once it
 * handles their submits. They post all the same, so that a token can never
 * land in an address or the history, whatever happens to the script.
 */
export function bringLinksView(): SafeHtml {
  return html`<section id="bring-links" class="panel" aria-labelledby="bring-heading">
<h2 id="bring-heading">Bring links from elsewhere</h2>
<form id="file-form" class="add-form" method="post" novalidate hidden ${ui.mark("fileForm")}>
<h3>From another browser</h3>
<div class="field">
<label for="links-file">Links file</label>
<input id="links-file" name="file" type="file" accept=".json,application/json" aria-describedby="links-file-hint links-file-error" ${ui.mark("file")}>
<p id="links-file-hint" class="hint">The file "Download your links, with their tokens" made there (linkgeo-links.json).</p>
<p id="links-file-error" class="field-error" role="alert"></p>
</div>
<button type="submit" id="file-button" class="secondary">Add these links</button>
<p id="file-status" class="add-status" role="status" ${ui.mark("fileStatus")}></p>
</form>
<form id="add-form" class="add-form" method="post" novalidate hidden ${ui.mark("tokenForm")}>
<h3 id="add-heading">One link, by its manage token</h3>
<div class="field">
<label for="add-token">Manage token</label>
<input id="add-token" name="token" type="text" required autocomplete="off" autocapitalize="off" spellcheck="false" aria-describedby="add-token-hint add-token-error" ${ui.mark("token")}>
<p id="add-token-hint" class="hint">The token you were given when you made the link, on another device or with the API.</p>
<p id="add-token-error" class="field-error" role="alert"></p>
</div>
<button type="submit" id="add-button" class="secondary" ${ui.mark("tokenButton")}>Add link</button>
<p id="add-status" class="add-status" role="status" ${ui.mark("tokenStatus")}></p>
</form>
</section>`;
}
