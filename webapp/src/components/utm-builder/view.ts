import { html, type SafeHtml } from "../../html.ts";
import { utmBuilderParts as ui } from "./parts.ts";
import type { UtmTag } from "./utm-url.ts";

/** Each tag's field: its label, and a hint with an example. */
const fields: { tag: UtmTag; label: string; hint: string; optional?: true }[] = [
  { tag: "source", label: "Source", hint: "Where the link is shared: newsletter, twitter, a partner's name." },
  { tag: "medium", label: "Medium", hint: "The kind of channel: email, social, cpc." },
  { tag: "campaign", label: "Campaign", hint: "Which campaign it belongs to: spring_sale." },
  { tag: "term", label: "Term", hint: "A paid search's keywords.", optional: true },
  { tag: "content", label: "Content", hint: "Which of several links to the same place: banner, footer.", optional: true },
];

/**
 * Campaign tags for a URL field: utm_source, utm_medium and utm_campaign,
 * utm_term and utm_content if wanted, added to the address in the field
 * the script (script.ts) is given, in the page, with nothing sent anywhere.
 * A <details> the script shows: without it the builder could not work. The
 * fields have no name, so the form around them never sends them. `prefix`
 * keeps its ids apart from the page's (the root is `<prefix>-builder`);
 * `mark`, the part it is of the component around it, if any.
 */
export function utmBuilderView(prefix: string, mark?: SafeHtml): SafeHtml {
  const id = (name: string) => `${prefix}-${name}`;
  const rows = fields.map(
    (field) => html`<div class="field">
<label for="${id(field.tag)}">${field.label}${field.optional ? html` <span class="optional">(optional)</span>` : null}</label>
<input id="${id(field.tag)}" type="text" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="200" aria-describedby="${id(`${field.tag}-hint`)} ${id(`${field.tag}-error`)}" ${ui.mark(field.tag)}>
<p id="${id(`${field.tag}-hint`)}" class="hint">${field.hint}</p>
<p id="${id(`${field.tag}-error`)}" class="field-error" role="alert"></p>
</div>`,
  );
  return html`<details id="${id("builder")}" class="more-options utm-builder" hidden ${mark}>
<summary>Add UTM tags <span class="summary-hint">source, medium, campaign</span></summary>
<div class="utm-fields">
${rows}
</div>
<div class="utm-actions">
<button type="button" class="secondary" ${ui.mark("add")}>Add to the URL</button>
<p id="${id("status")}" class="copy-status" role="status" ${ui.mark("status")}></p>
</div>
</details>`;
}
