import { html, type SafeHtml } from "../../html.ts";
import { aliasFieldParts as ui } from "./parts.ts";

/**
 * A new link's custom alias: the field, its standing hint, and two places
 * its script (script.ts) speaks in, one at a time: the status while it is
 * typed (free, taken, reserved), the error once Shorten refused it. `value`:
 * as a form sent without the script had it; `mark`, the part it is of the
 * component around it, if any.
 */
export function aliasFieldView(value: string | undefined, mark?: SafeHtml): SafeHtml {
  return html`<div id="alias-field" class="field alias-field" ${mark}>
<label for="alias">Custom alias <span class="optional">(optional)</span></label>
<input id="alias" name="alias" type="text" minlength="3" maxlength="32" pattern="[A-Za-z0-9_\\-]{3,32}" autocomplete="off" autocapitalize="off" spellcheck="false" value="${value ?? ""}" aria-describedby="alias-hint alias-status alias-error" ${ui.mark("input")}>
<p id="alias-hint" class="hint">3 to 32 letters, digits, _ or -. Leave it empty for a random code.</p>
<p id="alias-status" class="hint" aria-live="polite" ${ui.mark("status")}></p>
<p id="alias-suggestions" class="row" ${ui.mark("suggestions")}></p>
<p id="alias-error" class="field-error" role="alert"></p>
</div>`;
}
