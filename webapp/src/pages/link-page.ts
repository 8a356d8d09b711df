import { html } from "../html.ts";
import { qrKitFields } from "./qr-kit-fields.ts";
import type { Page } from "../page-shell.ts";
import type { WebAssets } from "../web-assets.ts";
import { linkOptionFields } from "./link-option-fields.ts";

/**
 * One link: its public facts and options for anyone, and, with its manage
 * token or an admin session, its visits, a new destination, its options
 * changed, and deletion. The same HTML
 * serves every code (client/link.ts reads it from the address), so an
 * unknown code is the script's to say. Without the script nothing but the
 * note below is shown; the manage-token form, hidden until the script asks
 * for a token, posts all the same, so a token never lands in an address.
 */
export function linkPage(assets: WebAssets): Page {
  return {
    title: "Link",
    current: "links",
    script: "link",
    main: html`<p class="back"><a href="/app/links">Your links</a></p>
<h1 id="link-heading" tabindex="-1">Short link</h1>
<p id="link-status" class="message" role="status">Loading the link…</p>
<noscript><p class="message error">This page shows the link with its script: turn on JavaScript to see it.</p></noscript>
<section id="link-missing" class="panel narrow" aria-labelledby="link-heading" hidden>
<p>It may have been deleted, or the address was mistyped. Check the address, or make a new short link.</p>
<p><a class="button" href="/">Shorten a URL</a></p>
</section>
<section id="link-deleted" class="panel narrow" aria-labelledby="link-heading" hidden>
<p class="message ok" role="status">The link was deleted: its short link no longer works, for anyone.</p>
<p><a class="button" href="/">Back to the home page</a></p>
</section>
<div id="link-view" hidden>
<section class="panel" aria-labelledby="summary-heading">
<h2 id="summary-heading" class="visually-hidden">Summary</h2>
<div class="field">
<label for="short-url">Short link</label>
<div class="copy-row">
<input id="short-url" type="text" readonly>
<button type="button" id="copy-short" class="secondary">Copy</button>
</div>
<p id="copy-short-status" class="copy-status" aria-live="polite"></p>
</div>
<p id="link-badges" class="badges"></p>
<p id="link-title" class="link-title" hidden></p>
<p class="destination">Goes to <a id="destination" class="mono" rel="noopener noreferrer"></a><span id="destination-hidden" class="muted" hidden>a destination hidden by the link's password</span></p>
<dl class="stats">
<div class="stat"><dt>Visits</dt><dd id="stat-count"></dd></div>
<div class="stat"><dt>Created</dt><dd id="stat-created"></dd></div>
<div class="stat"><dt>Last visit</dt><dd id="stat-last"></dd></div>
</dl>
<h3 id="options-summary-heading">Options</h3>
<dl id="link-options" class="option-list" aria-labelledby="options-summary-heading"></dl>
<p id="access-note" class="hint"></p>
</section>
<section id="qr-panel" class="panel" aria-labelledby="qr-heading">
<h2 id="qr-heading">QR code</h2>
${qrKitFields}
</section>
<section id="access-panel" class="panel" aria-labelledby="access-heading" hidden>
<h2 id="access-heading">See the visits, change or delete this link</h2>
<p>For that you need this link's manage token (given once, when the link was made), or to <a href="/app/admin">sign in as an admin</a>. Anyone can see the summary above.</p>
<form id="token-form" class="token-form" method="post" novalidate>
<div class="field">
<label for="token-input">Manage token</label>
<input id="token-input" name="token" type="text" required autocomplete="off" autocapitalize="off" spellcheck="false" aria-describedby="token-input-error">
<p id="token-input-error" class="field-error" role="alert"></p>
</div>
<button type="submit" id="token-button">Use this token</button>
</form>
</section>
<section id="visits-panel" class="panel" aria-labelledby="visits-heading" hidden>
<div class="visits-header">
<h2 id="visits-heading">Visits</h2>
<div id="chart-controls" class="chart-controls">
<div class="field">
<label for="range">Range</label>
<select id="range">
<option value="24h">Last 24 hours</option>
<option value="7d" selected>Last 7 days</option>
<option value="30d">Last 30 days</option>
<option value="90d">Last 90 days</option>
<option value="custom">Dates you choose</option>
</select>
</div>
<div id="custom-range" class="custom-range" hidden>
<div class="field">
<label for="range-from">First day</label>
<input id="range-from" type="date" aria-describedby="range-error">
</div>
<div class="field">
<label for="range-to">Last day</label>
<input id="range-to" type="date" aria-describedby="range-error">
</div>
</div>
<div class="field">
<label for="granularity">Each bar is</label>
<select id="granularity" aria-describedby="chart-filter-text">
<option value="hour">an hour</option>
<option value="day" selected>a day (UTC)</option>
</select>
</div>
<label class="switch"><input id="humans-only" type="checkbox" role="switch"> Humans only</label>
</div>
</div>
<p id="range-error" class="field-error" role="alert"></p>
<p id="visits-error" class="message error" role="alert"></p>
<p id="analytics-off" class="message" hidden><strong>Analytics are off on this server.</strong> Each visit is counted (the count above), but not when, from where or by whom, so there is no chart or list to show.</p>
<div id="visits-report">
<div class="row spread visits-summary">
<p id="visits-totals" class="visits-totals" aria-live="polite"></p>
<p class="row"><span id="visits-live" class="hint"></span><button type="button" id="visits-csv" class="secondary small">Download CSV</button></p>
</div>
<p class="legend" aria-hidden="true"><span><span class="swatch humans"></span>Humans</span><span><span class="swatch bots"></span>Bots</span></p>
<p id="chart-filter" class="chart-filter" hidden><span id="chart-filter-text"></span> <button type="button" id="chart-filter-clear" class="secondary small">Chart every visit</button></p>
<div id="chart" class="chart-box"></div>
<p class="hint">Choose a row of a list to chart its visits alone.</p>
<div class="top-lists">
<section aria-labelledby="top-referrers-heading"><h3 id="top-referrers-heading">Referrers</h3><div id="top-referrers"></div></section>
<section aria-labelledby="top-countries-heading"><h3 id="top-countries-heading">Countries</h3><div id="top-countries-map" class="country-map" data-map-url="${assets.staticUrl("world-map.svg")}" aria-hidden="true"></div><div id="top-countries"></div></section>
<section aria-labelledby="top-browsers-heading"><h3 id="top-browsers-heading">Browsers</h3><div id="top-browsers"></div></section>
<section aria-labelledby="top-os-heading"><h3 id="top-os-heading">Operating systems</h3><div id="top-os"></div></section>
<section aria-labelledby="top-devices-heading"><h3 id="top-devices-heading">Devices</h3><div id="top-devices"></div></section>
<section aria-labelledby="top-bots-heading"><h3 id="top-bots-heading">Bots</h3><div id="top-bots"></div></section>
</div>
</div>
</section>
<section id="manage-panel" class="panel" aria-labelledby="edit-heading" hidden>
<h2 id="edit-heading">Change the destination</h2>
<form id="edit-form" novalidate>
<div class="field">
<label for="new-url">New destination</label>
<input id="new-url" name="long_url" type="url" required autocomplete="off" inputmode="url" spellcheck="false" aria-describedby="new-url-error">
<p id="new-url-error" class="field-error" role="alert"></p>
</div>
<button type="submit" id="edit-button">Save destination</button>
<p id="edit-status" class="edit-status" role="status"></p>
</form>
<h2 id="options-heading" class="section-heading">Change the options</h2>
<form id="options-form" class="options-form" novalidate>
<p class="hint">An emptied field clears its option when you save.</p>
${linkOptionFields("edit", { editing: true })}
<button type="submit" id="options-button">Save options</button>
<p id="options-status" class="edit-status" role="status"></p>
<p id="options-error" class="message error" role="alert"></p>
</form>
<h2 id="delete-heading" class="delete-heading">Delete this link</h2>
<p>The short link stops working at once, for everyone, and its visits are deleted with it. This cannot be undone.</p>
<p><button type="button" id="delete-button" class="danger">Delete this link…</button></p>
<div id="delete-confirm" class="delete-confirm" role="group" aria-labelledby="delete-question" hidden>
<p id="delete-question"><strong>Are you sure?</strong> Delete <span id="delete-what" class="mono"></span> for good?</p>
<div class="row">
<button type="button" id="delete-yes" class="danger">Delete</button>
<button type="button" id="delete-no" class="secondary">Cancel</button>
</div>
</div>
<p id="delete-error" class="message error" role="alert"></p>
</section>
</div>`,
  };
}
