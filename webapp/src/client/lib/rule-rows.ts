/**
 * The rules' rows of the option fields (components/option-fields): each a
 * fieldset of device, country, language and the address to send them to,
 * with one error line, added and removed with buttons. Built here: rows
 * need the script, so the server renders none.
 */
import { h, show } from "./dom.ts";
import { deviceNames, ruleDevices, type LinkRule, type OptionInputs, type RuleCondition } from "./link-options.ts";
import { addressToSend } from "./web-address.ts";

/** The most rules a link may have (the API's limit). */
const maxRules = 20;

export interface RuleRow {
  element: HTMLLIElement;
  device: HTMLSelectElement;
  country: HTMLInputElement;
  language: HTMLInputElement;
  url: HTMLInputElement;
  error: HTMLElement;
  legend: HTMLLegendElement;
  remove: HTMLButtonElement;
}

export class RuleRows {
  private rows: RuleRow[] = [];
  /** The rows the last read sent, in order: the API's `rules.<n>` is the n-th of these. */
  private sentRows: RuleRow[] = [];
  private nextRowId = 0;

  /** `idPrefix` makes each row's ids, which its labels and error line need. */
  constructor(
    private readonly list: HTMLOListElement,
    private readonly addButton: HTMLButtonElement,
    private readonly idPrefix: string,
  ) {
    addButton.addEventListener("click", () => this.add().device.focus());
    // The rules need this script: the button is offered once it is here to handle it.
    show(addButton, true);
  }

  /** A new row, filled from `rule` when given. */
  add(rule?: LinkRule): RuleRow {
    const row = ruleRow(`${this.idPrefix}-rule-${this.nextRowId++}`, rule);
    row.remove.addEventListener("click", () => this.removeRow(row));
    this.rows.push(row);
    this.list.append(row.element);
    this.number();
    return row;
  }

  clear(): void {
    this.rows = [];
    this.list.replaceChildren();
    this.number();
  }

  clearErrors(): void {
    for (const row of this.rows) {
      row.error.textContent = "";
      for (const control of [row.device, row.country, row.language, row.url]) control.removeAttribute("aria-invalid");
    }
  }

  /** The rules as the API takes them; a row left empty is no rule, a half-filled one goes to the API, whose error names what is missing. */
  read(): OptionInputs["rules"] {
    const rules: OptionInputs["rules"] = [];
    this.sentRows = [];
    for (const row of this.rows) {
      const when: RuleCondition = {};
      if (row.device.value) when.device = row.device.value as RuleCondition["device"];
      if (row.country.value.trim()) when.country = row.country.value.trim().toUpperCase();
      if (row.language.value.trim()) when.language = row.language.value.trim().toLowerCase();
      const url = row.url.value.trim();
      if (Object.keys(when).length === 0 && url === "") continue;
      rules.push({ when, url: url === "" ? url : addressToSend(url) });
      this.sentRows.push(row);
    }
    return rules;
  }

  /** The row the API's `rules.<index>` was read from, if the last read sent one. */
  sent(index: number): RuleRow | undefined {
    return this.sentRows[index];
  }

  /** What takes the focus for the rules as a whole: the first row, else the button that adds one. */
  first(): HTMLElement {
    return this.rows[0]?.device ?? this.addButton;
  }

  private removeRow(row: RuleRow): void {
    const index = this.rows.indexOf(row);
    this.rows.splice(index, 1);
    row.element.remove();
    this.number();
    // The focus goes to the rule that took its place, else to adding one.
    (this.rows[index]?.device ?? this.rows[index - 1]?.device ?? this.addButton).focus();
  }

  private number(): void {
    this.rows.forEach((row, i) => {
      row.legend.textContent = `Rule ${i + 1}`;
      row.remove.lastChild!.textContent = ` rule ${i + 1}`;
    });
    this.addButton.disabled = this.rows.length >= maxRules;
  }
}

/** One rule's row, its ids from `id`; codes and an address, never words to complete or correct; one error line for the row. */
function ruleRow(id: string, rule: LinkRule | undefined): RuleRow {
  const errorId = `${id}-error`;
  const labelled = (name: string, label: string, control: HTMLInputElement | HTMLSelectElement) =>
    h("div", { class: `field rule-${name}` }, h("label", { for: control.id }, label), control);
  const device = h(
    "select",
    { id: `${id}-device`, "aria-describedby": errorId },
    h("option", { value: "" }, "Any device"),
    ruleDevices.map((value) => h("option", { value }, deviceNames[value])),
  );
  const typed = (name: string, placeholder: string, attributes: Record<string, string | number>) =>
    h("input", { id: `${id}-${name}`, type: "text", autocomplete: "off", spellcheck: "false", placeholder, "aria-describedby": errorId, ...attributes });
  const country = typed("country", "DE", { maxlength: 2, autocapitalize: "characters" });
  const language = typed("language", "de", { maxlength: 3, autocapitalize: "off" });
  const url = typed("url", "example.com/for-them", { inputmode: "url", autocapitalize: "off" });
  device.value = rule?.when.device ?? "";
  country.value = rule?.when.country ?? "";
  language.value = rule?.when.language ?? "";
  url.value = rule?.url ?? "";
  const legend = h("legend", {});
  const remove = h("button", { type: "button", class: "secondary small" }, "Remove", h("span", { class: "visually-hidden" }));
  const error = h("p", { id: errorId, class: "field-error", role: "alert" });
  const fields = h(
    "div",
    { class: "rule-fields" },
    labelled("device", "Device", device),
    labelled("country", "Country", country),
    labelled("language", "Language", language),
    labelled("url", "Send them to", url),
  );
  const element = h("li", { class: "rule-row" }, h("fieldset", {}, legend, fields, error, remove));
  return { element, device, country, language, url, error, legend, remove };
}
