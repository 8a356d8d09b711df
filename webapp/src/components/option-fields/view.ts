import { html, type SafeHtml } from "../../html.ts";
import { optionFieldParts as ui, passwordRemovalParts as removal } from "./parts.ts";

/** What the options already hold, as typed (a form sent back without the script): every one optional. */
export interface OptionValues {
  expires_at?: string;
  max_visits?: string;
  expired_url?: string;
  redirect_status?: string;
  tags?: string;
  title?: string;
  forward_query?: boolean;
  public_stats?: boolean;
}

const statuses = [
  ["", "The service's default"],
  ["301", "301 Moved Permanently"],
  ["302", "302 Found"],
  ["307", "307 Temporary Redirect"],
  ["308", "308 Permanent Redirect"],
] as const;

/** One labelled field under an id prefix: its hint and its error line, which the control's aria-describedby names. */
function fieldOf(id: (name: string) => string) {
  return (name: string, label: string, input: SafeHtml, hint?: string, hintPart?: SafeHtml) => html`<div class="field">
<label for="${id(name)}">${label}</label>
${input}
${hint ? html`<p id="${id(name)}-hint" class="hint"${hintPart ? html` ${hintPart}` : null}>${hint}</p>` : null}
<p id="${id(name)}-error" class="field-error" role="alert"></p>
</div>`;
}

/**
 * A link's options as form fields, the same on the home page (a new link)
 * and on a link's page (changing one); `prefix` keeps their ids apart, and
 * the root is `<prefix>-option-fields`. The component's script reads and
 * fills them, shows each error on its field, and builds the rules' rows,
 * which need the script. Changing a link, the password field sets a new one
 * and a checkbox removes it. Addresses are text fields: `example.com/sorry`
 * is taken, and sent with `https://`. `rootPart` marks the root for a form
 * that holds it.
 */
export function optionFieldsView(
  prefix: string,
  { editing = false, values = {}, rootPart = null }: { editing?: boolean; values?: OptionValues; rootPart?: SafeHtml | null } = {},
): SafeHtml {
  const id = (name: string) => `${prefix}-${name}`;
  const field = fieldOf(id);
  const describedBy = (name: string, hint = true) => (hint ? `${id(name)}-hint ${id(name)}-error` : `${id(name)}-error`);
  return html`<div class="option-fields" id="${id("option-fields")}" ${rootPart}${editing ? html` data-editing="true"` : null}>
${field(
  "expires-at",
  "Expires",
  html`<input id="${id("expires-at")}" ${ui.mark("expiresAt")} name="expires_at" type="datetime-local" value="${values.expires_at ?? ""}" aria-describedby="${describedBy("expires-at")}">`,
  "In your own time zone. After it, the link no longer leads to its destination. Empty: never.",
  ui.mark("expiresHint"),
)}
${field(
  "max-visits",
  "Maximum of visits",
  html`<input id="${id("max-visits")}" ${ui.mark("maxVisits")} name="max_visits" type="number" min="1" max="2147483647" step="1" inputmode="numeric" value="${values.max_visits ?? ""}" aria-describedby="${describedBy("max-visits")}">`,
  "After this many visits the link is used up. Empty: no limit.",
)}
${field(
  "expired-url",
  "Address once expired or used up",
  html`<input id="${id("expired-url")}" ${ui.mark("expiredUrl")} name="expired_url" type="text" inputmode="url" autocomplete="off" autocapitalize="off" spellcheck="false" value="${values.expired_url ?? ""}" placeholder="example.com/sorry" aria-describedby="${describedBy("expired-url")}">`,
  "Where visitors go instead then. Empty: they are told the link is no longer available.",
)}
${field("redirect-status", "Redirect status", statusSelect(id("redirect-status"), describedBy("redirect-status", false), values.redirect_status ?? ""))}
${field(
  "password",
  editing ? "New password" : "Password",
  html`<input id="${id("password")}" ${ui.mark("password")} name="password" type="password" minlength="8" maxlength="128" autocomplete="new-password" aria-describedby="${describedBy("password")}">`,
  editing
    ? "8 to 128 characters. Empty: the password stays as it is."
    : "8 to 128 characters. Visitors must give it before they are sent on. Empty: no password.",
)}
${
  editing
    ? html`<div class="field checkbox-field" id="${id("remove-password-field")}" ${removal.mark("removePasswordField")} hidden>
<label><input id="${id("remove-password")}" ${removal.mark("removePassword")} name="remove_password" type="checkbox"> Remove the password</label>
</div>`
    : null
}
${field(
  "tags",
  "Tags",
  html`<input id="${id("tags")}" ${ui.mark("tags")} name="tags" type="text" autocomplete="off" autocapitalize="off" spellcheck="false" value="${values.tags ?? ""}" placeholder="launch, newsletter" aria-describedby="${describedBy("tags")}">`,
  "Separated by commas; up to 10, each a-z, 0-9, _ or -.",
)}
${field("title", "Title", html`<input id="${id("title")}" ${ui.mark("title")} name="title" type="text" maxlength="200" autocomplete="off" value="${values.title ?? ""}" aria-describedby="${describedBy("title", false)}">`)}
${forwardQueryField(id, values.forward_query === true)}
${publicStatsField(id, values.public_stats === true)}
${rulesFieldset(id, editing)}
</div>`;
}

function statusSelect(id: string, describedBy: string, chosen: string): SafeHtml {
  return html`<select id="${id}" ${ui.mark("redirectStatus")} name="redirect_status" aria-describedby="${describedBy}">${statuses.map(
    ([value, label]) => html`<option value="${value}"${value === chosen ? html` selected` : null}>${label}</option>`,
  )}</select>`;
}

function forwardQueryField(id: (name: string) => string, checked: boolean): SafeHtml {
  return html`<div class="field checkbox-field">
<label><input id="${id("forward-query")}" ${ui.mark("forwardQuery")} name="forward_query" type="checkbox"${checked ? html` checked` : null} aria-describedby="${id("forward-query")}-hint ${id("forward-query")}-error"> Forward the query string</label>
<p id="${id("forward-query")}-hint" class="hint">A visit to the short link with <code>?utm_source=mail</code> passes it on to the destination.</p>
<p id="${id("forward-query")}-error" class="field-error" role="alert"></p>
</div>`;
}

function publicStatsField(id: (name: string) => string, checked: boolean): SafeHtml {
  return html`<div class="field checkbox-field">
<label><input id="${id("public-stats")}" ${ui.mark("publicStats")} name="public_stats" type="checkbox"${checked ? html` checked` : null} aria-describedby="${id("public-stats")}-hint ${id("public-stats")}-error"> Anyone may see the visits</label>
<p id="${id("public-stats")}-hint" class="hint">The link's visits report is public; its destination, options and visit log stay yours.</p>
<p id="${id("public-stats")}-error" class="field-error" role="alert"></p>
</div>`;
}

/** The rules: their rows are the script's to add, so the button waits, hidden, for it. */
function rulesFieldset(id: (name: string) => string, editing: boolean): SafeHtml {
  return html`<fieldset class="rules" aria-describedby="${id("rules-hint")}">
<legend>Rules</legend>
<p id="${id("rules-hint")}" class="hint">Send the visitors who match every condition of a rule somewhere else; the first rule that matches wins. Up to 20.</p>
<ol id="${id("rules")}" ${ui.mark("ruleList")} class="rule-list"></ol>
<p id="${id("rules-error")}" ${ui.mark("rulesError")} class="field-error" role="alert"></p>
<button type="button" id="${id("add-rule")}" ${ui.mark("addRule")} class="secondary small" hidden>Add a rule</button>
${
  // Changing a link needs the script anyway (the page says so once); a new link's form is shown without it.
  editing ? null : html`<noscript><p class="hint">Rules are added with the page's script: turn on JavaScript to add one.</p></noscript>`
}
</fieldset>`;
}
