/**
 * API keys, the admin's or a workspace's (`calls`): the form that makes one (name, scopes,
 * optional expiry), the new key shown once with a copy button, and the
 * table of keys, each revoked after a second question in its row. The key
 * is kept only in its read-only field, emptied by "I have copied it" or
 * the next key, and never stored.
 */
import { apiKeyScopes, type ApiKeyRecord, type KeyCalls } from "../../client/lib/admin-keys.ts";
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { copyButton } from "../../client/lib/copy-text.ts";
import { fill, h, show } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { formatDateTime } from "../../client/lib/format.ts";
import { isoOfLocal, localZone } from "../../client/lib/link-options.ts";
import { focusCancel, mount as mountQuestion } from "../confirm-question/script.ts";
import type { Outage } from "../outage-notice/script.ts";
import { apiKeysParts } from "./parts.ts";

export interface ApiKeysDeps {
  /** Where the keys are now: the admin's (`adminKeyCalls`) or the chosen workspace's. */
  calls(): KeyCalls;
  /** The signed-in credential for changes (the cookie goes by itself; this adds the CSRF token). */
  credential(): Credential;
  /** Handles what is not the panel's business (the session ended); true when it did. */
  handled(error: unknown): boolean;
  outage: Outage;
}

type Parts = FoundParts<typeof apiKeysParts.spec>;
type FieldName = "name" | "scopes" | "expires_at";

export function mount(root: HTMLElement, deps: ApiKeysDeps): ApiKeys {
  return new ApiKeys(findParts(root, apiKeysParts), deps);
}

export class ApiKeys {
  private loading: AbortController | null = null;
  /** Counts `clear()`s: a key made before the panel was cleared (signed out, another workspace chosen) is not shown after it. */
  private shown = 0;
  private readonly scopeInputs: HTMLInputElement[];

  constructor(
    private readonly ui: Parts,
    private readonly deps: ApiKeysDeps,
  ) {
    this.scopeInputs = [...ui.keyScopes.querySelectorAll<HTMLInputElement>('input[name="scopes"]')];
    ui.keyExpiresHint.textContent = `In your time zone (${localZone()}). Empty: the key works until it is revoked.`;
    copyButton(ui.keyCopy, ui.keyValue, ui.keyCopyStatus);
    ui.keyDone.addEventListener("click", () => {
      this.hideCreated();
      ui.keyName.focus();
    });
    ui.keyForm.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.submit();
    });
  }

  /** Lists the keys (signed in). */
  async load(): Promise<void> {
    this.loading?.abort();
    const controller = new AbortController();
    this.loading = controller;
    this.ui.keysTable.setAttribute("aria-busy", "true");
    try {
      const keys = await this.deps.calls().list(controller.signal);
      this.deps.outage.answered("keys");
      this.ui.keysError.textContent = "";
      fill(
        this.ui.keysBody,
        keys.map((key) => this.keyRow(key)),
      );
      show(this.ui.keysTable.parentElement!, keys.length > 0);
      show(this.ui.keysEmpty, keys.length === 0);
    } catch (error) {
      if (controller.signal.aborted || this.deps.handled(error) || this.deps.outage.retryLater("keys", error, () => this.load())) return;
      this.ui.keysError.textContent = error instanceof ApiError ? `The API keys could not be loaded: ${error.message}` : "The API keys could not be loaded.";
    } finally {
      if (this.loading === controller) this.ui.keysTable.removeAttribute("aria-busy");
    }
  }

  /** Shows the form that makes a key, or hides it (a role that may make none). */
  mayCreate(allowed: boolean): void {
    show(this.ui.keyForm, allowed);
  }

  /** Forgets everything shown, the new key first (signed out). */
  clear(): void {
    this.shown++;
    this.loading?.abort();
    this.hideCreated();
    this.clearErrors();
    this.ui.keyForm.reset();
    fill(this.ui.keysBody);
    this.ui.keysStatus.textContent = "";
    this.ui.keysError.textContent = "";
  }

  private async submit(): Promise<void> {
    const { ui } = this;
    this.clearErrors();
    ui.keysStatus.textContent = "";
    const name = ui.keyName.value.trim();
    const scopes = apiKeyScopes.filter((scope) => this.scopeInputs.some((input) => input.checked && input.value === scope));
    const expiresAt = ui.keyExpires.value === "" ? undefined : (isoOfLocal(ui.keyExpires.value) ?? null);
    // The expiry's own rules (in the future, a real date) are the API's, said on the field as it answers.
    if (!name) return this.fieldError("name", "Enter a name, so people know what the key is for.");
    if (scopes.length === 0) return this.fieldError("scopes", "Choose at least one scope.");
    if (expiresAt === null) return this.fieldError("expires_at", "Enter a date and a time, or leave the field empty.");
    ui.keyCreate.disabled = true;
    const shown = this.shown;
    try {
      const made = await this.deps.calls().create({ name, scopes, ...(expiresAt ? { expires_at: expiresAt } : {}) }, this.deps.credential());
      if (shown !== this.shown) return;
      ui.keyForm.reset();
      ui.keyCreatedName.textContent = made.name;
      ui.keyValue.value = made.key;
      ui.keyCopyStatus.textContent = "";
      show(ui.keyCreated, true);
      ui.keyCreatedTitle.focus();
      void this.load();
    } catch (error) {
      if (this.deps.handled(error) || shown !== this.shown) return;
      const field = fieldOf(error);
      if (field) this.fieldError(field, sentence(error instanceof ApiError ? error.message : ""));
      else ui.keyFormError.textContent = error instanceof ApiError ? `The key could not be made: ${error.message}` : "The key could not be made.";
    } finally {
      ui.keyCreate.disabled = false;
    }
  }

  private fieldError(field: FieldName, message: string): void {
    const { ui } = this;
    const [error, invalid] =
      field === "name" ? [ui.keyNameError, [ui.keyName]] : field === "scopes" ? [ui.keyScopesError, this.scopeInputs] : [ui.keyExpiresError, [ui.keyExpires]];
    error.textContent = message;
    for (const input of invalid) input.setAttribute("aria-invalid", "true");
    invalid[0]?.focus();
  }

  private clearErrors(): void {
    const { ui } = this;
    for (const error of [ui.keyFormError, ui.keyNameError, ui.keyScopesError, ui.keyExpiresError]) error.textContent = "";
    for (const input of [ui.keyName, ui.keyExpires, ...this.scopeInputs]) input.removeAttribute("aria-invalid");
  }

  private hideCreated(): void {
    this.ui.keyValue.value = "";
    this.ui.keyCopyStatus.textContent = "";
    show(this.ui.keyCreated, false);
  }

  private keyRow(key: ApiKeyRecord): HTMLTableRowElement {
    const actions = h("td", { class: "actions" });
    const revokeButton = h("button", { type: "button", class: "secondary small delete" }, "Revoke", h("span", { class: "visually-hidden" }, ` ${key.name}`));
    revokeButton.addEventListener("click", () => this.askToRevoke(key, actions, revokeButton));
    fill(actions, revokeButton);
    const never = () => h("span", { class: "muted" }, "never");
    return h(
      "tr",
      { "data-key-id": key.id },
      h("td", { class: "code", "data-label": "Name" }, key.name),
      h(
        "td",
        { "data-label": "Scopes" },
        h(
          "ul",
          { class: "scope-list" },
          key.scopes.map((scope) => h("li", {}, h("code", {}, scope))),
        ),
      ),
      h("td", { "data-label": "Created" }, formatDateTime(key.created_at)),
      h("td", { "data-label": "Expires" }, key.expires_at ? formatDateTime(key.expires_at) : never()),
      h("td", { "data-label": "Last used" }, key.last_used_at ? formatDateTime(key.last_used_at) : never()),
      actions,
    );
  }

  private askToRevoke(key: ApiKeyRecord, actions: HTMLElement, revokeButton: HTMLButtonElement): void {
    const shown = this.shown;
    const revoked = () => {
      if (shown !== this.shown) return;
      this.ui.keysStatus.textContent = `Key ${key.name} revoked.`;
      this.ui.keysTitle.focus();
      void this.load();
    };
    const question = mountQuestion(this.ui.keyQuestionTemplate, {
      label: `Revoke ${key.name}?`,
      text: ["Revoke ", h("strong", {}, key.name), "? Programs using it are refused within a second; this cannot be undone."],
      yes: "Yes, revoke",
      cancelled: () => {
        fill(actions, revokeButton);
        revokeButton.focus();
      },
      act: async () => {
        try {
          await this.deps.calls().revoke(key.id, this.deps.credential());
        } catch (error) {
          // Already gone (another admin, another tab): what was asked for is true.
          if (!(error instanceof ApiError && error.status === 404)) {
            return this.deps.handled(error) ? null : error instanceof ApiError ? error.message : "The key could not be revoked.";
          }
        }
        revoked();
        return null;
      },
    });
    fill(actions, question);
    focusCancel(question);
  }
}

/** The field an API 400 names (`name must be …`, `expires_at is already past`), if it is one of the form's. */
function fieldOf(error: unknown): FieldName | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  return /^(name|scopes|expires_at)\b/.exec(error.message)?.[1] as FieldName | undefined;
}

const fieldWords: Record<FieldName, string> = { name: "the name", scopes: "the scopes", expires_at: "the expiry" };

/** The API's message in the form's words: "expires_at is already past" is "The expiry is already past." */
function sentence(message: string): string {
  const text = message.replace(/^(name|scopes|expires_at)\b/, (field) => fieldWords[field as FieldName]);
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}
