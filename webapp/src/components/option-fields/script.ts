/**
 * The options' fields of a form (view.ts): reads them as the API takes them
 * (an address typed without a scheme gets `https://`), fills them from a
 * record, builds the rules' rows (lib/rule-rows.ts), and shows an API error
 * on the field it names.
 */
import { ApiError } from "../../client/lib/api.ts";
import { show } from "../../client/lib/dom.ts";
import { findParts, showFieldError, type FoundParts } from "../../client/lib/find-parts.ts";
import {
  isoOfLocal,
  localOfIso,
  localZone,
  optionErrorOf,
  tagsOf,
  type LinkOptions,
  type OptionInputs,
  type RedirectStatus,
} from "../../client/lib/link-options.ts";
import { RuleRows } from "../../client/lib/rule-rows.ts";
import { addressToSend } from "../../client/lib/web-address.ts";
import { optionFieldParts, passwordRemovalParts } from "./parts.ts";

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

type Parts = FoundParts<typeof optionFieldParts.spec>;
type Removal = FoundParts<typeof passwordRemovalParts.spec>;

/** The option fields under `root` (`<prefix>-option-fields`), changing a link when the view was rendered for that. */
export function mountOptionFields(root: HTMLElement): OptionFields {
  const ui = findParts(root, optionFieldParts);
  const removal = root.dataset.editing === "true" ? findParts(root, passwordRemovalParts) : null;
  const rules = new RuleRows(ui.ruleList, ui.addRule, root.id.replace(/-option-fields$/, ""));
  ui.expiresHint.textContent = `In your time zone (${localZone()}). After it, the link no longer leads to its destination. Empty: never.`;
  removal?.removePassword.addEventListener("change", () => {
    ui.password.disabled = removal.removePassword.checked;
    if (removal.removePassword.checked) ui.password.value = "";
  });
  /** The expiry as filled from the record: kept to the second when the field is left as it was shown. */
  const filled: { expiry: { local: string; iso: string } | null } = { expiry: null };
  const clearErrors = () => {
    for (const control of errorControls(ui)) showFieldError(control, null);
    ui.rulesError.textContent = "";
    rules.clearErrors();
  };
  return {
    read: () => {
      clearErrors();
      return readFields(ui, removal, rules, filled.expiry);
    },
    fill: (record) => {
      clearErrors();
      filled.expiry = fillFields(ui, removal, rules, record);
    },
    reset: () => {
      clearErrors();
      filled.expiry = null;
      for (const control of [ui.expiresAt, ui.maxVisits, ui.expiredUrl, ui.password, ui.tags, ui.title]) control.value = "";
      ui.redirectStatus.value = "";
      ui.forwardQuery.checked = false;
      ui.publicStats.checked = false;
      rules.clear();
    },
    clearErrors,
    showError: (error) => showOptionError(ui, rules, error),
  };
}

/** Every field, each with its own error line. */
const errorControls = (ui: Parts) => [
  ui.expiresAt,
  ui.maxVisits,
  ui.expiredUrl,
  ui.redirectStatus,
  ui.password,
  ui.tags,
  ui.title,
  ui.forwardQuery,
  ui.publicStats,
];

const text = (control: HTMLInputElement) => (control.value.trim() === "" ? null : control.value.trim());

function readFields(ui: Parts, removal: Removal | null, rules: RuleRows, filledExpiry: { local: string; iso: string } | null) {
  let expiry: string | null = null;
  if (ui.expiresAt.value !== "") {
    expiry = filledExpiry && ui.expiresAt.value === filledExpiry.local ? filledExpiry.iso : isoOfLocal(ui.expiresAt.value);
    if (expiry === null) showFieldError(ui.expiresAt, "Enter a date and a time, or leave the field empty.");
  }
  if (ui.maxVisits.validity.badInput) showFieldError(ui.maxVisits, "Enter a whole number of visits, or leave the field empty.");
  const invalid = [ui.expiresAt, ui.maxVisits].find((control) => control.getAttribute("aria-invalid") === "true");
  if (invalid) {
    invalid.focus();
    return null;
  }
  const expiredUrl = text(ui.expiredUrl);
  const options: OptionInputs = {
    expires_at: expiry,
    max_visits: ui.maxVisits.value === "" ? null : Number(ui.maxVisits.value),
    expired_url: expiredUrl === null ? null : addressToSend(expiredUrl),
    redirect_status: ui.redirectStatus.value === "" ? null : (Number(ui.redirectStatus.value) as RedirectStatus),
    tags: tagsOf(ui.tags.value),
    title: text(ui.title),
    forward_query: ui.forwardQuery.checked,
    public_stats: ui.publicStats.checked,
    rules: rules.read(),
  };
  const typedPassword = ui.password.value === "" ? undefined : ui.password.value;
  return { options, password: removal?.removePassword.checked ? null : typedPassword };
}

/** Fills the fields from `record`; answers the expiry as filled, to send it unchanged when the field is left alone. */
function fillFields(ui: Parts, removal: Removal | null, rules: RuleRows, record: LinkOptions): { local: string; iso: string } | null {
  ui.expiresAt.value = record.expires_at ? localOfIso(record.expires_at) : "";
  ui.maxVisits.value = record.max_visits === null ? "" : String(record.max_visits);
  ui.expiredUrl.value = record.expired_url ?? "";
  ui.redirectStatus.value = record.redirect_status === null ? "" : String(record.redirect_status);
  ui.password.value = "";
  ui.password.disabled = false;
  if (removal) {
    removal.removePassword.checked = false;
    show(removal.removePasswordField, record.password_protected);
  }
  ui.tags.value = record.tags.join(", ");
  ui.title.value = record.title ?? "";
  ui.forwardQuery.checked = record.forward_query;
  ui.publicStats.checked = record.public_stats;
  rules.clear();
  for (const rule of record.rules) rules.add(rule);
  return record.expires_at ? { local: ui.expiresAt.value, iso: record.expires_at } : null;
}

/** An API error on the field, or the rule's row, it names, focused; false when it names none. */
function showOptionError(ui: Parts, rules: RuleRows, error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 400) return false;
  const found = optionErrorOf(error.message);
  if (!found) return false;
  const { field, message } = found;
  if (field.kind === "option") {
    const controls: Record<typeof field.name, HTMLInputElement | HTMLSelectElement> = {
      expires_at: ui.expiresAt,
      max_visits: ui.maxVisits,
      expired_url: ui.expiredUrl,
      redirect_status: ui.redirectStatus,
      password: ui.password,
      tags: ui.tags,
      title: ui.title,
      forward_query: ui.forwardQuery,
      public_stats: ui.publicStats,
    };
    const control = controls[field.name];
    showFieldError(control, message);
    control.focus();
    return true;
  }
  const row = field.kind === "rule" ? rules.sent(field.index) : undefined;
  if (!row) {
    ui.rulesError.textContent = message;
    rules.first().focus();
    return true;
  }
  row.error.textContent = message;
  const control = field.kind === "rule" && field.part ? row[field.part] : row.device;
  control.setAttribute("aria-invalid", "true");
  control.focus();
  return true;
}
