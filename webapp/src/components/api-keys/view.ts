import { html, type SafeHtml } from "../../html.ts";
import { confirmQuestionTemplate } from "../confirm-question/view.ts";
import { apiKeysParts as ui } from "./parts.ts";

/** A scope the form offers: its value, its checkbox's id, its name and what it allows. */
export interface ScopeChoice {
  scope: string;
  id: string;
  name: string;
  hint: string;
}

/** The scopes of an admin's key: every one. */
export const adminKeyScopes: readonly ScopeChoice[] = [
  { scope: "links:read", id: "links-read", name: "Read links", hint: "List every link, and see a protected link's addresses." },
  { scope: "links:write", id: "links-write", name: "Change links", hint: "Make, change and delete any link." },
  {
    scope: "links:create",
    id: "links-create",
    name: "Make links only",
    hint: "Make links and nothing else: no manage token comes back, so it may sit in a web page.",
  },
  { scope: "visits:read", id: "visits-read", name: "Read visits", hint: "Every visits report, of one link or all." },
  { scope: "admin", id: "admin", name: "Admin", hint: "Everything an admin may do, API keys included." },
];

/** The scopes of a workspace's key: over its links only, never `admin` (docs/people.md). */
export const workspaceKeyScopes: readonly ScopeChoice[] = [
  { scope: "links:read", id: "links-read", name: "Read links", hint: "List the workspace's links, and see their options." },
  { scope: "links:write", id: "links-write", name: "Change links", hint: "Make, change and delete the workspace's links (owners and editors)." },
  {
    scope: "links:create",
    id: "links-create",
    name: "Make links only",
    hint: "Make links in the workspace and nothing else, so it may sit in a web page (owners and editors).",
  },
  { scope: "visits:read", id: "visits-read", name: "Read visits", hint: "The visits reports of the workspace's links." },
];

/** What differs between the admin's keys and a workspace's: the scopes offered and the words above the form. */
export interface ApiKeysViewOptions {
  scopes: readonly ScopeChoice[];
  /** What a key is for, before "It may do what its scopes allow…". */
  intro: SafeHtml;
}

const adminKeys: ApiKeysViewOptions = {
  scopes: adminKeyScopes,
  intro: html`A program (an import script, a CMS) sends a key as <code>Authorization: Bearer lgk_…</code> instead of an admin's password.`,
};

/** The API keys: the form that makes one, the new key shown once, and the table of keys (script.ts). */
export function apiKeysView(mark: SafeHtml, { scopes, intro }: ApiKeysViewOptions = adminKeys): SafeHtml {
  return html`<section id="api-keys" class="panel" aria-labelledby="api-keys-title" ${mark}>
  <h2 id="api-keys-title" tabindex="-1" ${ui.mark("keysTitle")}>API keys</h2>
  <p class="hint">${intro} It may do what its scopes allow, until it expires or is revoked.</p>
  ${keyFormView(scopes)}
  ${createdKeyView()}
  <p id="keys-status" class="message ok" role="status" ${ui.mark("keysStatus")}></p>
  <p id="keys-error" class="message error" role="alert" ${ui.mark("keysError")}></p>
  <div class="table-wrap">
    <table id="keys-table" class="link-table keys-table" aria-labelledby="api-keys-title" ${ui.mark("keysTable")}>
      <thead>
        <tr><th scope="col">Name</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col">Actions</th></tr>
      </thead>
      <tbody id="keys-body" ${ui.mark("keysBody")}></tbody>
    </table>
  </div>
  <p id="keys-empty" class="links-empty muted" hidden ${ui.mark("keysEmpty")}>No API keys yet.</p>
  ${confirmQuestionTemplate(ui.mark("keyQuestionTemplate"))}
</section>`;
}

function keyFormView(scopes: readonly ScopeChoice[]): SafeHtml {
  return html`<form id="key-form" class="key-form" method="post" novalidate aria-labelledby="key-form-title" ${ui.mark("keyForm")}>
    <h3 id="key-form-title">New key</h3>
    <div class="field">
      <label for="key-name">Name</label>
      <input id="key-name" name="name" type="text" maxlength="100" autocomplete="off" spellcheck="false" placeholder="import script" aria-describedby="key-name-hint key-name-error" ${ui.mark("keyName")}>
      <p id="key-name-hint" class="hint">For people: who or what uses the key.</p>
      <p id="key-name-error" class="field-error" role="alert" ${ui.mark("keyNameError")}></p>
    </div>
    <fieldset id="key-scopes" class="key-scopes" ${ui.mark("keyScopes")}>
      <legend>Scopes</legend>
      ${scopes.map(
        ({ scope, id, name, hint }) => html`<div class="field checkbox-field">
        <label><input id="key-scope-${id}" name="scopes" type="checkbox" value="${scope}" aria-describedby="key-scope-${id}-hint key-scopes-error"> ${name} <code>${scope}</code></label>
        <p id="key-scope-${id}-hint" class="hint">${hint}</p>
      </div>`,
      )}
      <p id="key-scopes-error" class="field-error" role="alert" ${ui.mark("keyScopesError")}></p>
    </fieldset>
    <div class="field">
      <label for="key-expires">Expires <span class="optional">(optional)</span></label>
      <input id="key-expires" name="expires_at" type="datetime-local" aria-describedby="key-expires-hint key-expires-error" ${ui.mark("keyExpires")}>
      <p id="key-expires-hint" class="hint" ${ui.mark("keyExpiresHint")}>In your own time zone. Empty: the key works until it is revoked.</p>
      <p id="key-expires-error" class="field-error" role="alert" ${ui.mark("keyExpiresError")}></p>
    </div>
    <p id="key-form-error" class="message error" role="alert" ${ui.mark("keyFormError")}></p>
    <button type="submit" id="key-create" ${ui.mark("keyCreate")}>Create key</button>
  </form>`;
}

function createdKeyView(): SafeHtml {
  return html`<div id="key-created" class="token-box" role="group" aria-labelledby="key-created-title" hidden ${ui.mark("keyCreated")}>
    <h3 id="key-created-title" tabindex="-1" ${ui.mark("keyCreatedTitle")}>Copy the new key now: you will not see it again</h3>
    <p>This is the only time the key <strong id="key-created-name" ${ui.mark("keyCreatedName")}></strong> is shown: only a fingerprint of it is kept. Store it where the program reads it; if it is lost, revoke it and make a new one.</p>
    <label for="key-value" class="visually-hidden">New API key</label>
    <div class="copy-row">
      <input id="key-value" class="mono" type="text" readonly ${ui.mark("keyValue")}>
      <button type="button" id="copy-key" class="secondary" ${ui.mark("keyCopy")}>Copy key</button>
    </div>
    <p id="copy-key-status" class="copy-status" aria-live="polite" ${ui.mark("keyCopyStatus")}></p>
    <button type="button" id="key-done" class="secondary small" ${ui.mark("keyDone")}>I have copied it</button>
  </div>`;
}
