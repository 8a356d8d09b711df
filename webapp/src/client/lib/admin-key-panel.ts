/**
 * The admin page's API keys: the form that makes one (name, scopes,
 * optional expiry), the new key shown once with a copy button, and the
 * table of keys, each revoked after a confirmation in its row. The key is
 * kept only in its read-only field, emptied by "I have copied it" or the
 * next key, and never stored.
 */
import { apiKeyScopes, createApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord } from "./admin-keys.ts";
import { ApiError, type Credential } from "./api.ts";
import { copyButton } from "./copy-text.ts";
import { byId, fill, h, show } from "./dom.ts";
import { formatDateTime } from "./format.ts";
import { isoOfLocal, localZone } from "./link-options.ts";

export interface KeyPanelHost {
  /** The signed-in admin's credential for changes (the cookie goes by itself; this adds the CSRF token). */
  credential(): Credential;
  /** Handles what is not the panel's business (the session ended); true when it did. */
  handled(error: unknown): boolean;
}

export interface KeyPanel {
  /** Lists the keys (signed in). */
  load(): Promise<void>;
  /** Forgets everything shown, the new key first (signed out). */
  clear(): void;
}

type FieldName = "name" | "scopes" | "expires_at";

export function apiKeyPanel(host: KeyPanelHost): KeyPanel {
  const title = byId("api-keys-title");
  const form = byId<HTMLFormElement>("key-form");
  const nameInput = byId<HTMLInputElement>("key-name");
  const scopeInputs = apiKeyScopes.map((scope) => byId<HTMLInputElement>(`key-scope-${scope.replace(":", "-")}`));
  const expiresInput = byId<HTMLInputElement>("key-expires");
  const formError = byId("key-form-error");
  const createButton = byId<HTMLButtonElement>("key-create");
  const created = byId("key-created");
  const createdTitle = byId("key-created-title");
  const keyField = byId<HTMLInputElement>("key-value");
  const copyStatus = byId("copy-key-status");
  const status = byId("keys-status");
  const listError = byId("keys-error");
  const table = byId("keys-table");
  const tableWrap = table.parentElement!;
  const body = byId("keys-body");
  const empty = byId("keys-empty");

  byId("key-expires-hint").textContent = `In your time zone (${localZone()}). Empty: the key works until it is revoked.`;
  copyButton(byId<HTMLButtonElement>("copy-key"), keyField, copyStatus);
  byId("key-done").addEventListener("click", () => {
    hideCreated();
    nameInput.focus();
  });

  const controls: Record<FieldName, { control: HTMLInputElement; error: HTMLElement }> = {
    name: { control: nameInput, error: byId("key-name-error") },
    scopes: { control: scopeInputs[0]!, error: byId("key-scopes-error") },
    expires_at: { control: expiresInput, error: byId("key-expires-error") },
  };

  function fieldError(field: FieldName, message: string): void {
    const { control, error } = controls[field];
    error.textContent = message;
    const invalid = field === "scopes" ? scopeInputs : [control];
    for (const input of invalid) input.setAttribute("aria-invalid", "true");
    control.focus();
  }

  function clearErrors(): void {
    formError.textContent = "";
    for (const { error } of Object.values(controls)) error.textContent = "";
    for (const input of [nameInput, expiresInput, ...scopeInputs]) input.removeAttribute("aria-invalid");
  }

  function hideCreated(): void {
    keyField.value = "";
    copyStatus.textContent = "";
    show(created, false);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void submit();
  });

  async function submit(): Promise<void> {
    clearErrors();
    status.textContent = "";
    const name = nameInput.value.trim();
    const scopes = apiKeyScopes.filter((_, i) => scopeInputs[i]!.checked);
    let expiresAt: string | undefined;
    if (expiresInput.value !== "") expiresAt = isoOfLocal(expiresInput.value) ?? undefined;
    // The expiry's own rules (in the future, a real date) are the API's, said on the field as it answers.
    if (!name) return fieldError("name", "Enter a name, so people know what the key is for.");
    if (scopes.length === 0) return fieldError("scopes", "Choose at least one scope.");
    if (expiresInput.value !== "" && expiresAt === undefined) return fieldError("expires_at", "Enter a date and a time, or leave the field empty.");
    createButton.disabled = true;
    try {
      const made = await createApiKey({ name, scopes, ...(expiresAt ? { expires_at: expiresAt } : {}) }, host.credential());
      form.reset();
      byId("key-created-name").textContent = made.name;
      keyField.value = made.key;
      copyStatus.textContent = "";
      show(created, true);
      createdTitle.focus();
      void load();
    } catch (error) {
      if (host.handled(error)) return;
      const field = fieldOf(error);
      if (field) fieldError(field, sentence(error instanceof ApiError ? error.message : ""));
      else formError.textContent = error instanceof ApiError ? `The key could not be made: ${error.message}` : "The key could not be made.";
    } finally {
      createButton.disabled = false;
    }
  }

  let loading: AbortController | null = null;

  async function load(): Promise<void> {
    loading?.abort();
    const controller = new AbortController();
    loading = controller;
    table.setAttribute("aria-busy", "true");
    try {
      const keys = await listApiKeys(controller.signal);
      listError.textContent = "";
      fill(
        body,
        keys.map((key) => keyRow(key)),
      );
      show(tableWrap, keys.length > 0);
      show(empty, keys.length === 0);
    } catch (error) {
      if (controller.signal.aborted || host.handled(error)) return;
      listError.textContent = error instanceof ApiError ? `The API keys could not be loaded: ${error.message}` : "The API keys could not be loaded.";
    } finally {
      if (loading === controller) table.removeAttribute("aria-busy");
    }
  }

  function keyRow(key: ApiKeyRecord): HTMLTableRowElement {
    const actionsCell = h("td", { class: "actions" });
    const revokeButton = h(
      "button",
      { type: "button", class: "secondary small delete", onClick: () => askToRevoke() },
      "Revoke",
      h("span", { class: "visually-hidden" }, ` ${key.name}`),
    );
    const showActions = () => fill(actionsCell, revokeButton);

    function askToRevoke(): void {
      const error = h("p", { class: "message error", role: "alert" });
      const confirm = h("button", { type: "button", class: "danger small", onClick: () => void revoke() }, "Yes, revoke");
      const keep = h("button", { type: "button", class: "secondary small", onClick: () => cancel() }, "Cancel");
      const question = h(
        "div",
        { class: "confirm-delete", role: "group", "aria-label": `Revoke ${key.name}?` },
        h("p", {}, "Revoke ", h("strong", {}, key.name), "? Programs using it are refused within a second; this cannot be undone."),
        error,
        h("div", { class: "row" }, confirm, keep),
      );
      question.addEventListener("keydown", (event) => {
        if (event.key === "Escape") cancel();
      });

      async function revoke(): Promise<void> {
        confirm.disabled = keep.disabled = true;
        try {
          await revokeApiKey(key.id, host.credential());
          revoked();
        } catch (caught) {
          // Already gone (another admin, another tab): what was asked for is true.
          if (caught instanceof ApiError && caught.status === 404) return revoked();
          confirm.disabled = keep.disabled = false;
          if (!host.handled(caught)) error.textContent = caught instanceof ApiError ? caught.message : "The key could not be revoked.";
        }
      }

      fill(actionsCell, question);
      keep.focus();
    }

    function cancel(): void {
      showActions();
      revokeButton.focus();
    }

    function revoked(): void {
      status.textContent = `Key ${key.name} revoked.`;
      title.focus();
      void load();
    }

    showActions();
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
      h("td", { "data-label": "Expires" }, key.expires_at ? formatDateTime(key.expires_at) : h("span", { class: "muted" }, "never")),
      h("td", { "data-label": "Last used" }, key.last_used_at ? formatDateTime(key.last_used_at) : h("span", { class: "muted" }, "never")),
      actionsCell,
    );
  }

  return {
    load,
    clear() {
      loading?.abort();
      hideCreated();
      clearErrors();
      form.reset();
      fill(body);
      status.textContent = "";
      listError.textContent = "";
    },
  };
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
