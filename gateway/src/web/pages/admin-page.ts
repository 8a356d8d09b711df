import { html } from "../html.ts";
import type { Page } from "../page-shell.ts";

/**
 * The admin page's skeleton. Both views start hidden: the script asks
 * `GET /admin/session` who is signed in, then shows the sign-in form or the
 * table. The form posts nowhere useful without the script, but by POST, so a
 * password typed into it never lands in a URL.
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
    <button type="button" id="sign-out" class="secondary small">Log out</button>
  </div>
  <p id="sign-out-error" class="message error" role="alert"></p>

  <section id="visit-summary" class="panel" aria-labelledby="visit-summary-title" hidden>
    <h2 id="visit-summary-title">Visits across all links, last 30 days</h2>
    <div class="grid">
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
    </form>
    <p id="links-status" class="message ok" role="status"></p>
    <p id="links-error" class="message error" role="alert"></p>
    <div class="table-wrap">
      <table id="links-table" class="link-table" aria-labelledby="links-title">
        <thead>
          <tr>
            <th scope="col">Short link</th>
            <th scope="col">Destination</th>
            <th scope="col" class="number">Visits</th>
            <th scope="col">Created</th>
            <th scope="col">Last visited</th>
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
</div>`,
};
