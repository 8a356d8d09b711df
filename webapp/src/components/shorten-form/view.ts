import { html, type SafeHtml } from "../../html.ts";
import { optionFieldsView, type OptionValues } from "../option-fields/view.ts";
import { aliasFieldView } from "../alias-field/view.ts";
import { utmBuilderView } from "../utm-builder/view.ts";
import { shortenFormParts as ui } from "./parts.ts";

/** A shorten form the browser sent by itself (the script did not run), to be shown again as it was typed. */
export interface SentShortenForm extends OptionValues {
  long_url?: string;
  alias?: string;
}

/**
 * The shorten form: at first sight one field and one button; the UTM
 * builder, and the alias with every other option behind "Customize", wait
 * folded. It validates in the script (novalidate), so every error is shown
 * in the page's own words, next to its field. It posts too (it may carry a
 * link's password): sent by the browser itself, the page comes back with
 * `sent` filled in (but the password) and a note that shortening needs the
 * script.
 */
export function shortenFormView(sent: SentShortenForm | undefined): SafeHtml {
  // Shown again as sent: open when anything in it was filled in.
  const customized = sent !== undefined && Object.entries(sent).some(([key, value]) => key !== "long_url" && value);
  const notice = sent
    ? html`<p id="no-script-notice" class="message error" role="alert">Nothing was shortened: shortening needs the page's script. What you typed is kept below, except a password. Turn on JavaScript, then press Shorten.</p>`
    : null;
  return html`<section id="shorten" class="panel" aria-labelledby="shorten-heading">
<h2 id="shorten-heading" class="visually-hidden">New short link</h2>
${notice}
<noscript><p class="message error">Shortening a URL needs the page's script: turn on JavaScript to shorten one.</p></noscript>
<form id="shorten-form" class="shorten-form" method="post" novalidate ${ui.mark("form")}>
<div class="field url-field">
<label for="long-url">URL to shorten</label>
<input id="long-url" name="long_url" type="text" required autofocus autocomplete="url" inputmode="url" autocapitalize="off" spellcheck="false" placeholder="example.com/a/long/address" value="${sent?.long_url ?? ""}" aria-describedby="long-url-error" ${ui.mark("url")}>
<p id="long-url-error" class="field-error" role="alert"></p>
</div>
${utmBuilderView("utm", ui.mark("utm"))}
<details id="customize" class="more-options"${customized ? html` open` : null} ${ui.mark("customize")}>
<summary>Customize <span class="summary-hint">alias, expiry, password and more</span></summary>
${aliasFieldView(sent?.alias, ui.mark("alias"))}
${optionFieldsView("new", { values: sent, rootPart: ui.mark("options") })}
</details>
<div class="shorten-submit">
<button type="submit" id="shorten-button" ${ui.mark("button")}>Shorten</button>
</div>
</form>
<p id="shorten-error" class="message error" role="alert" ${ui.mark("error")}></p>
</section>`;
}
