/**
 * The options' fields of a form (webapp/src/pages/link-option-fields.ts
 * renders them, under an id prefix): reads them as the API takes them, fills
 * them from a record, builds the rules' rows (add, remove), and shows an API
 * error on the field it names.
 */
import { ApiError } from "./api.ts";
import { byId, h, show } from "./dom.ts";
import {
  deviceNames,
  isoOfLocal,
  localOfIso,
  localZone,
  optionErrorOf,
  ruleDevices,
  tagsOf,
  type LinkOptions,
  type LinkRule,
  type OptionInputs,
  type RedirectStatus,
  type RuleCondition,
} from "./link-options.ts";

/** The most rules a link may have (the API's limit). */
const maxRules = 20;

export interface OptionFields {
  /**
   * The options as the API takes them, and the password: a string to set,
   * null to remove it, undefined to leave it. Null when a field is plainly
   * wrong: its error is shown and it has the focus.
   */
  read(): { options: OptionInputs; password: string | null | undefined } | null;
  /** The fields as `record` has them; the password field empty. */
  fill(record: LinkOptions): void;
  /** Every field empty, no rule, no error. */
  reset(): void;
  clearErrors(): void;
  /** Shows an API error on the field it names, and focuses it; false when it names none of these fields. */
  showError(error: unknown): boolean;
}

interface RuleRow {
  element: HTMLLIElement;
  device: HTMLSelectElement;
  country: HTMLInputElement;
  language: HTMLInputElement;
  url: HTMLInputElement;
  error: HTMLElement;
  legend: HTMLLegendElement;
  remove: HTMLButtonElement;
}

export function optionFields(prefix: string): OptionFields {
  const input = <T extends HTMLElement = HTMLInputElement>(name: string) => byId<T>(`${prefix}-${name}`);
  const expiresAt = input("expires-at");
  const maxVisits = input("max-visits");
  const expiredUrl = input("expired-url");
  const redirectStatus = input<HTMLSelectElement>("redirect-status");
  const password = input("password");
  const removePassword = document.getElementById(`${prefix}-remove-password`) as HTMLInputElement | null;
  const tags = input("tags");
  const title = input("title");
  const forwardQuery = input("forward-query");
  const ruleList = input<HTMLOListElement>("rules");
  const rulesError = input("rules-error");
  const addRule = input<HTMLButtonElement>("add-rule");

  byId(`${prefix}-expires-at-hint`).textContent = `In your time zone (${localZone()}). After it, the link no longer leads to its destination. Empty: never.`;

  /** The expiry as filled from the record: kept to the second when the field is left as it was shown. */
  let filledExpiry: { local: string; iso: string } | null = null;
  let rows: RuleRow[] = [];
  /** The rows the last read sent, in order: the API's `rules.<n>` is the n-th of these. */
  let sentRows: RuleRow[] = [];
  let nextRowId = 0;

  const controls = [expiresAt, maxVisits, expiredUrl, redirectStatus, password, tags, title];
  const controlOf: Record<string, HTMLInputElement | HTMLSelectElement> = {
    expires_at: expiresAt,
    max_visits: maxVisits,
    expired_url: expiredUrl,
    redirect_status: redirectStatus,
    password,
    tags,
    title,
    forward_query: forwardQuery,
  };

  function fieldError(control: HTMLInputElement | HTMLSelectElement, message: string | null, errorId = `${control.id}-error`): void {
    const error = document.getElementById(errorId);
    if (error) error.textContent = message ?? "";
    if (message) control.setAttribute("aria-invalid", "true");
    else control.removeAttribute("aria-invalid");
  }

  function numberRows(): void {
    rows.forEach((row, i) => {
      row.legend.textContent = `Rule ${i + 1}`;
      row.remove.lastChild!.textContent = ` rule ${i + 1}`;
    });
    addRule.disabled = rows.length >= maxRules;
  }

  function addRow(rule?: LinkRule): RuleRow {
    const id = `${prefix}-rule-${nextRowId++}`;
    const errorId = `${id}-error`;
    const labelled = (name: string, label: string, control: HTMLInputElement | HTMLSelectElement) =>
      h("div", { class: `field rule-${name}` }, h("label", { for: control.id }, label), control);
    const device = h(
      "select",
      { id: `${id}-device`, "aria-describedby": errorId },
      h("option", { value: "" }, "Any device"),
      ruleDevices.map((value) => h("option", { value }, deviceNames[value])),
    );
    // A rule's typed fields: codes and an address, never words to complete or correct; one error line for the row.
    const typed = (name: string, placeholder: string, attributes: Record<string, string | number>) =>
      h("input", { id: `${id}-${name}`, autocomplete: "off", spellcheck: "false", placeholder, "aria-describedby": errorId, ...attributes });
    const country = typed("country", "DE", { type: "text", maxlength: 2, autocapitalize: "characters" });
    const language = typed("language", "de", { type: "text", maxlength: 3, autocapitalize: "off" });
    const url = typed("url", "https://example.com/for-them", { type: "url", inputmode: "url" });
    device.value = rule?.when.device ?? "";
    country.value = rule?.when.country ?? "";
    language.value = rule?.when.language ?? "";
    url.value = rule?.url ?? "";
    const legend = h("legend", {});
    const remove = h("button", { type: "button", class: "secondary small" }, "Remove", h("span", { class: "visually-hidden" }));
    const error = h("p", { id: errorId, class: "field-error", role: "alert" });
    const element = h(
      "li",
      { class: "rule-row" },
      h(
        "fieldset",
        {},
        legend,
        h(
          "div",
          { class: "rule-fields" },
          labelled("device", "Device", device),
          labelled("country", "Country", country),
          labelled("language", "Language", language),
          labelled("url", "Send them to", url),
        ),
        error,
        remove,
      ),
    );
    const row: RuleRow = { element, device, country, language, url, error, legend, remove };
    remove.addEventListener("click", () => {
      const index = rows.indexOf(row);
      rows.splice(index, 1);
      element.remove();
      numberRows();
      // The focus goes to the rule that took its place, else to adding one.
      (rows[index]?.device ?? rows[index - 1]?.device ?? addRule).focus();
    });
    rows.push(row);
    ruleList.append(element);
    numberRows();
    return row;
  }

  function clearRows(): void {
    rows = [];
    ruleList.replaceChildren();
    numberRows();
  }

  addRule.addEventListener("click", () => addRow().device.focus());
  // The rules need this script: the button is offered once it is here to handle it.
  show(addRule, true);
  removePassword?.addEventListener("change", () => {
    password.disabled = removePassword.checked;
    if (removePassword.checked) password.value = "";
  });

  function clearErrors(): void {
    for (const control of controls) fieldError(control, null);
    rulesError.textContent = "";
    for (const row of rows) {
      row.error.textContent = "";
      for (const control of [row.device, row.country, row.language, row.url]) control.removeAttribute("aria-invalid");
    }
  }

  function readRules(): OptionInputs["rules"] {
    const rules: OptionInputs["rules"] = [];
    sentRows = [];
    for (const row of rows) {
      const when: RuleCondition = {};
      if (row.device.value) when.device = row.device.value as RuleCondition["device"];
      if (row.country.value.trim()) when.country = row.country.value.trim().toUpperCase();
      if (row.language.value.trim()) when.language = row.language.value.trim().toLowerCase();
      const url = row.url.value.trim();
      // A row left empty is no rule; a half-filled one goes to the API, whose error names what is missing.
      if (Object.keys(when).length === 0 && url === "") continue;
      rules.push({ when, url });
      sentRows.push(row);
    }
    return rules;
  }

  const text = (control: HTMLInputElement) => (control.value.trim() === "" ? null : control.value.trim());

  return {
    read() {
      clearErrors();
      let expiry: string | null = null;
      if (expiresAt.value !== "") {
        expiry = filledExpiry && expiresAt.value === filledExpiry.local ? filledExpiry.iso : isoOfLocal(expiresAt.value);
        if (expiry === null) fieldError(expiresAt, "Enter a date and a time, or leave the field empty.");
      }
      if (maxVisits.validity.badInput) fieldError(maxVisits, "Enter a whole number of visits, or leave the field empty.");
      const invalid = [expiresAt, maxVisits].find((control) => control.getAttribute("aria-invalid") === "true");
      if (invalid) {
        invalid.focus();
        return null;
      }
      const typedPassword = password.value === "" ? undefined : password.value;
      return {
        options: {
          expires_at: expiry,
          max_visits: maxVisits.value === "" ? null : Number(maxVisits.value),
          expired_url: text(expiredUrl),
          redirect_status: redirectStatus.value === "" ? null : (Number(redirectStatus.value) as RedirectStatus),
          tags: tagsOf(tags.value),
          title: text(title),
          forward_query: forwardQuery.checked,
          rules: readRules(),
        },
        password: removePassword?.checked ? null : typedPassword,
      };
    },

    fill(record) {
      clearErrors();
      expiresAt.value = record.expires_at ? localOfIso(record.expires_at) : "";
      filledExpiry = record.expires_at ? { local: expiresAt.value, iso: record.expires_at } : null;
      maxVisits.value = record.max_visits === null ? "" : String(record.max_visits);
      expiredUrl.value = record.expired_url ?? "";
      redirectStatus.value = record.redirect_status === null ? "" : String(record.redirect_status);
      password.value = "";
      password.disabled = false;
      if (removePassword) {
        removePassword.checked = false;
        show(byId(`${prefix}-remove-password-field`), record.password_protected);
      }
      tags.value = record.tags.join(", ");
      title.value = record.title ?? "";
      forwardQuery.checked = record.forward_query;
      clearRows();
      for (const rule of record.rules) addRow(rule);
    },

    reset() {
      clearErrors();
      filledExpiry = null;
      for (const control of [expiresAt, maxVisits, expiredUrl, password, tags, title]) control.value = "";
      redirectStatus.value = "";
      forwardQuery.checked = false;
      clearRows();
    },

    clearErrors,

    showError(error) {
      if (!(error instanceof ApiError) || error.status !== 400) return false;
      const found = optionErrorOf(error.message);
      if (!found) return false;
      const { field, message } = found;
      if (field.kind === "option") {
        const control = controlOf[field.name]!;
        fieldError(control, message);
        control.focus();
        return true;
      }
      const row = field.kind === "rule" ? sentRows[field.index] : undefined;
      if (!row) {
        rulesError.textContent = message;
        (rows[0]?.device ?? addRule).focus();
        return true;
      }
      row.error.textContent = message;
      const control = field.kind === "rule" && field.part ? row[field.part] : row.device;
      control.setAttribute("aria-invalid", "true");
      control.focus();
      return true;
    },
  };
}
