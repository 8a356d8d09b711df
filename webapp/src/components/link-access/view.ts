import { html, type SafeHtml } from "../../html.ts";
import { linkAccessParts as ui } from "./parts.ts";

/**
 * What a visitor without a credential is asked for: the link's manage
 * token, or to sign in as an admin. Hidden until the script asks; the form
 * posts all the same, so a token never lands in an address. `rootPart`
 * marks its root for the page that holds it.
 */
export function linkAccessView(rootPart: SafeHtml | null = null): SafeHtml {
  return html`<section id="access-panel" ${rootPart} class="panel" aria-labelledby="access-heading" hidden>
<h2 id="access-heading">See the visits, change or delete this link</h2>
<p>For that you need this link's manage token (given once, when the link was made), or to <a href="/app/admin">sign in as an admin</a>. Anyone can see the summary.</p>
<form id="token-form" ${ui.mark("tokenForm")} class="token-form" method="post" novalidate>
<div class="field">
<label for="token-input">Manage token</label>
<input id="token-input" ${ui.mark("tokenInput")} name="token" type="text" required autocomplete="off" autocapitalize="off" spellcheck="false" aria-describedby="token-input-error">
<p id="token-input-error" class="field-error" role="alert"></p>
</div>
<button type="submit" id="token-button" ${ui.mark("tokenButton")}>Use this token</button>
</form>
</section>`;
}
