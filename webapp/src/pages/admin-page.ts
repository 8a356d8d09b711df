import { html } from "../html.ts";
import type { Page } from "../page-shell.ts";
import { qrKitFields } from "./qr-kit-fields.ts";

/**
 * The admin page's skeleton. Both views start hidden: the script asks
 * `GET /admin/session` who is signed in, then shows the sign-in form or the
 * table and the API keys. The forms post nowhere useful without the script,
 * but by POST, so a password typed into one never lands in a URL.
 */
export const adminPage: Page = {
  title: "Admin",
  current: "admin",
  script: "admin",
  main: html`<h1>Admin</h1>
<p id="admin-checking" class="muted" role="status">Checking whether you are signed in…</p>
<noscript><p class="message error">The admin page needs JavaScript.</p></noscript>
<p id="admin-failure" class="message error" role="alert"></p>

<section id="sign-in" class="panel narrow" aria-labelledby="sign-in-title" hidden>
  <h2 id="sign-in-title">Sign in</h2>
  <p id="sign-in-status" class="message ok" role="status"></p>
  <form id="sign-in-form" method="post">
    <div class="field">
      <label for="sign-in-username">Username</label>
      <input id="sign-in-username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required>
    </div>
    <div class="field">
      <label for="sign-in-password">Password</label>
      <input id="sign-in-password" name="password" type="password" autocomplete="current-password" required>
    </div>
    <p id="sign-in-error" class="message error" role="alert"></p>
    <button type="submit">Sign in</button>
  </form>
</section>

<div id="admin-view" hidden>
  <div class="row spread admin-bar">
    <p id="admin-who" tabindex="-1">Signed in as <strong id="admin-username"></strong></p>
    <button type="button" id="sign-out" class="secondary small">Sign out</button>
  </div>
  <p id="sign-out-error" class="message error" role="alert"></p>

  <section id="visit-summary" class="panel" aria-labelledby="visit-summary-title" hidden>
    <h2 id="visit-summary-title">Visits across all links, last 30 days</h2>
    <p id="visit-summary-off" class="message" hidden><strong>Analytics are off on this server.</strong> Each visit is counted in its link's count, but not when, so there is no total over days to show.</p>
    <div id="visit-summary-figures" class="grid">
      <dl id="visit-totals" class="stats"></dl>
      <div>
        <h3 id="top-links-title">Most visited</h3>
        <ol id="top-links" class="ranked" aria-labelledby="top-links-title"></ol>
      </div>
    </div>
  </section>

  <section class="panel" aria-labelledby="links-title">
    <h2 id="links-title" tabindex="-1">Links</h2>
    <form id="link-filters" class="row link-filters" role="search" aria-label="Links">
      <div class="field grow">
        <label for="link-search">Search</label>
        <input id="link-search" name="q" type="search" autocomplete="off" spellcheck="false" placeholder="Code or destination">
      </div>
      <div class="field">
        <label for="link-tag">Tag</label>
        <input id="link-tag" name="tag" type="search" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="32" placeholder="launch" aria-describedby="link-tag-error">
        <p id="link-tag-error" class="field-error" role="alert"></p>
      </div>
      <div class="field">
        <label for="link-state">State</label>
        <select id="link-state" name="state">
          <option value="">Any</option>
          <option value="active">Active</option>
          <option value="expired">Expired</option>
          <option value="exhausted">Used up</option>
        </select>
      </div>
      <div class="field">
        <label for="link-sort">Sort by</label>
        <select id="link-sort" name="sort">
          <option value="newest">Newest</option>
          <option value="most_visited">Most visited</option>
          <option value="last_visited">Last visited</option>
        </select>
      </div>
      <div class="field">
        <label for="link-page-size">Rows per page</label>
        <select id="link-page-size" name="page_size">
          <option value="20">20</option>
          <option value="50">50</option>
          <option value="100">100</option>
        </select>
      </div>
    </form>
    <p class="export-all"><a href="/admin/export/links?format=csv" download="linkgeo-links.csv">Download every link (CSV)</a></p>
    <p id="links-status" class="message ok" role="status"></p>
    <p id="links-error" class="message error" role="alert"></p>
    <p class="select-page"><label><input type="checkbox" id="select-page"> Select every link on this page</label></p>
    <div id="bulk-bar" class="bulk-bar" role="group" aria-labelledby="bulk-count" hidden>
      <p id="bulk-count"></p>
      <div id="bulk-actions" class="row">
        <a id="bulk-export" class="button secondary small" download>Download as CSV</a>
        <button type="button" id="bulk-delete" class="secondary small delete">Delete</button>
        <button type="button" id="bulk-clear" class="secondary small">Clear selection</button>
      </div>
      <div id="bulk-confirm" class="confirm-delete" role="group" aria-labelledby="bulk-question" hidden>
        <p id="bulk-question"></p>
        <p id="bulk-error" class="message error" role="alert"></p>
        <div class="row">
          <button type="button" id="bulk-confirm-delete" class="danger small">Yes, delete</button>
          <button type="button" id="bulk-cancel" class="secondary small">Cancel</button>
        </div>
      </div>
    </div>
    <div class="table-wrap">
      <table id="links-table" class="link-table" aria-labelledby="links-title">
        <colgroup>
          <col class="col-select"><col class="col-code"><col class="col-destination"><col class="col-visits"><col class="col-when"><col class="col-when"><col class="col-spark"><col class="col-actions">
        </colgroup>
        <thead>
          <tr>
            <th scope="col" class="select"><span class="visually-hidden">Selected</span></th>
            <th scope="col">Short link</th>
            <th scope="col">Destination</th>
            <th scope="col" class="number" data-sort="most_visited"><button type="button" class="sort-header">Visits</button></th>
            <th scope="col" data-sort="newest"><button type="button" class="sort-header">Created</button></th>
            <th scope="col" data-sort="last_visited"><button type="button" class="sort-header">Last visited</button></th>
            <th scope="col">Last 14 days</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody id="links-body"></tbody>
      </table>
    </div>
    <p id="links-empty" class="links-empty muted" hidden>No links match.</p>
    <nav class="row spread pager" aria-label="Pages of links">
      <button type="button" id="page-previous" class="secondary small">Previous</button>
      <p id="page-info" aria-live="polite"></p>
      <button type="button" id="page-next" class="secondary small">Next</button>
    </nav>
  </section>

  <dialog id="qr-dialog" class="qr-dialog" aria-labelledby="qr-dialog-title">
    <div class="row spread">
      <h2 id="qr-dialog-title">QR code</h2>
      <button type="button" id="qr-dialog-close" class="secondary small">Close</button>
    </div>
    <p id="qr-dialog-link" class="mono"></p>
    ${qrKitFields}
  </dialog>

  <section id="api-keys" class="panel" aria-labelledby="api-keys-title">
    <h2 id="api-keys-title" tabindex="-1">API keys</h2>
    <p class="hint">A program (an import script, a CMS) sends a key as <code>Authorization: Bearer lgk_…</code> instead of an admin's password. It may do what its scopes allow, until it expires or is revoked.</p>
    <form id="key-form" class="key-form" method="post" novalidate aria-labelledby="key-form-title">
      <h3 id="key-form-title">New key</h3>
      <div class="field">
        <label for="key-name">Name</label>
        <input id="key-name" name="name" type="text" maxlength="100" autocomplete="off" spellcheck="false" placeholder="import script" aria-describedby="key-name-hint key-name-error">
        <p id="key-name-hint" class="hint">For people: who or what uses the key.</p>
        <p id="key-name-error" class="field-error" role="alert"></p>
      </div>
      <fieldset id="key-scopes" class="key-scopes">
        <legend>Scopes</legend>
        <div class="field checkbox-field">
          <label><input id="key-scope-links-read" name="scopes" type="checkbox" value="links:read" aria-describedby="key-scope-links-read-hint key-scopes-error"> Read links <code>links:read</code></label>
          <p id="key-scope-links-read-hint" class="hint">List every link, and see a protected link's addresses.</p>
        </div>
        <div class="field checkbox-field">
          <label><input id="key-scope-links-write" name="scopes" type="checkbox" value="links:write" aria-describedby="key-scope-links-write-hint key-scopes-error"> Change links <code>links:write</code></label>
          <p id="key-scope-links-write-hint" class="hint">Change and delete any link.</p>
        </div>
        <div class="field checkbox-field">
          <label><input id="key-scope-visits-read" name="scopes" type="checkbox" value="visits:read" aria-describedby="key-scope-visits-read-hint key-scopes-error"> Read visits <code>visits:read</code></label>
          <p id="key-scope-visits-read-hint" class="hint">Every visits report, of one link or all.</p>
        </div>
        <div class="field checkbox-field">
          <label><input id="key-scope-admin" name="scopes" type="checkbox" value="admin" aria-describedby="key-scope-admin-hint key-scopes-error"> Admin <code>admin</code></label>
          <p id="key-scope-admin-hint" class="hint">Everything an admin may do, API keys included.</p>
        </div>
        <p id="key-scopes-error" class="field-error" role="alert"></p>
      </fieldset>
      <div class="field">
        <label for="key-expires">Expires <span class="optional">(optional)</span></label>
        <input id="key-expires" name="expires_at" type="datetime-local" aria-describedby="key-expires-hint key-expires-error">
        <p id="key-expires-hint" class="hint">In your own time zone. Empty: the key works until it is revoked.</p>
        <p id="key-expires-error" class="field-error" role="alert"></p>
      </div>
      <p id="key-form-error" class="message error" role="alert"></p>
      <button type="submit" id="key-create">Create key</button>
    </form>

    <div id="key-created" class="token-box" role="group" aria-labelledby="key-created-title" hidden>
      <h3 id="key-created-title" tabindex="-1">Copy the new key now: you will not see it again</h3>
      <p>This is the only time the key <strong id="key-created-name"></strong> is shown: only a fingerprint of it is kept. Store it where the program reads it; if it is lost, revoke it and make a new one.</p>
      <label for="key-value" class="visually-hidden">New API key</label>
      <div class="copy-row">
        <input id="key-value" class="mono" type="text" readonly>
        <button type="button" id="copy-key" class="secondary">Copy key</button>
      </div>
      <p id="copy-key-status" class="copy-status" aria-live="polite"></p>
      <button type="button" id="key-done" class="secondary small">I have copied it</button>
    </div>

    <p id="keys-status" class="message ok" role="status"></p>
    <p id="keys-error" class="message error" role="alert"></p>
    <div class="table-wrap">
      <table id="keys-table" class="link-table keys-table" aria-labelledby="api-keys-title">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody id="keys-body"></tbody>
      </table>
    </div>
    <p id="keys-empty" class="links-empty muted" hidden>No API keys yet.</p>
  </section>
</div>`,
};
