/**
 * The admin page. Signed out: a sign-in form (POST /admin/session). Signed
 * in: every link in a table with search, sort (also by its column headers)
 * and pages, a sparkline per row, edit and delete, a selection to download
 * or delete at once (lib/admin-selection.ts); and the API keys (lib/admin-key-panel.ts). The session is an HttpOnly cookie this script
 * never sees; it keeps only the session's CSRF token, in memory, and asks
 * for it again (GET /admin/session) each time the page loads.
 */
import { apiKeyPanel } from "./lib/admin-key-panel.ts";
import { allVisits, dailyVisits, listLinks, type LinkQuery, type LinkSort, type PageSize } from "./lib/admin-links.ts";
import { queryFromUrl, rememberQuery } from "./lib/admin-query.ts";
import { currentAdminSession, signIn, signOut, type AdminSession } from "./lib/admin-session.ts";
import { adminSelection } from "./lib/admin-selection.ts";
import { showVisitSummary } from "./lib/admin-summary.ts";
import { linkRow, type LinkRow, type RowHost } from "./lib/admin-table.ts";
import { ApiError, type Credential } from "./lib/api.ts";
import { byId, fill, show } from "./lib/dom.ts";
import { mountQrKit } from "../components/qr-kit/script.ts";
import { rootOf } from "./lib/find-parts.ts";
import { plural } from "./lib/format.ts";
import { typingPauseMs } from "./lib/typing-pause.ts";

const checking = byId("admin-checking");
const failure = byId("admin-failure");

const signInPanel = byId("sign-in");
const signInForm = byId<HTMLFormElement>("sign-in-form");
const usernameInput = byId<HTMLInputElement>("sign-in-username");
const passwordInput = byId<HTMLInputElement>("sign-in-password");
const signInStatus = byId("sign-in-status");
const signInError = byId("sign-in-error");
const signInButton = signInForm.querySelector("button")!;

const adminView = byId("admin-view");
const who = byId("admin-who");
const usernameText = byId("admin-username");
const signOutButton = byId<HTMLButtonElement>("sign-out");
const signOutError = byId("sign-out-error");

const summary = byId("visit-summary");
const linksTitle = byId("links-title");
const filters = byId<HTMLFormElement>("link-filters");
const searchInput = byId<HTMLInputElement>("link-search");
const tagInput = byId<HTMLInputElement>("link-tag");
const stateSelect = byId<HTMLSelectElement>("link-state");
const sortSelect = byId<HTMLSelectElement>("link-sort");
const pageSizeSelect = byId<HTMLSelectElement>("link-page-size");
const linksStatus = byId("links-status");
const linksError = byId("links-error");
const table = byId("links-table");
const tableWrap = table.parentElement!;
const tableBody = byId("links-body");
const empty = byId("links-empty");
const previousButton = byId<HTMLButtonElement>("page-previous");
const nextButton = byId<HTMLButtonElement>("page-next");
const pageInfo = byId("page-info");

const summaryDays = 30;

let session: AdminSession | null = null;
let query: LinkQuery = queryFromUrl(location.search);
let loading: AbortController | null = null;

function credential(): Credential {
  if (!session) throw new ApiError(401, "unauthorized", "You are signed out.");
  return { kind: "session", csrfToken: session.csrf_token };
}

/** A 401 while signed in means the session ended (expired, or signed out in another tab): back to the form. */
function handled(error: unknown): boolean {
  if (!(error instanceof ApiError && error.status === 401) || !session) return false;
  showSignIn("Your session has ended. Sign in again to continue.");
  usernameInput.focus();
  return true;
}

// A row's QR code, in a modal dialog: Escape or Close shuts it, and the focus goes back to the row's QR button.
const qrDialog = byId<HTMLDialogElement>("qr-dialog");
const rowQr = mountQrKit(rootOf("qr-kit"));
let qrOpener: HTMLElement | null = null;
byId("qr-dialog-close").addEventListener("click", () => qrDialog.close());
qrDialog.addEventListener("close", () => qrOpener?.focus());

const rowHost: RowHost = {
  credential,
  showQr: (record, from) => {
    qrOpener = from;
    byId("qr-dialog-title").textContent = `QR code of ${record.short_url}`;
    byId("qr-dialog-link").textContent = record.link;
    rowQr.show(record.link, record.short_url);
    qrDialog.showModal();
  },
  announce: (text) => {
    linksStatus.textContent = text;
  },
  deleted: (code) => tableReloadedThenSay(`Link ${code} deleted.`),
  handled,
};

const keyPanel = apiKeyPanel({ credential, handled });

const selection = adminSelection({
  credential,
  handled,
  deleted: (text) => tableReloadedThenSay(text),
});

// The column headers that sort: each names the one order it gives (the API's orders are all descending).
const sortHeaders = [...table.querySelectorAll<HTMLTableCellElement>("th[data-sort]")];
for (const header of sortHeaders) {
  header.querySelector("button")?.addEventListener("click", () => {
    const sort = header.dataset.sort as LinkSort;
    if (sort !== query.sort) changeQuery({ sort, page: 1 });
  });
}

// Signed out and signed in

function showSignIn(note = ""): void {
  session = null;
  loading?.abort();
  fill(tableBody);
  keyPanel.clear();
  linksStatus.textContent = "";
  signOutError.textContent = "";
  signInStatus.textContent = note;
  signInError.textContent = "";
  show(adminView, false);
  show(signInPanel, true);
}

function showAdmin(current: AdminSession): void {
  session = current;
  usernameText.textContent = current.username;
  showQuery();
  show(signInPanel, false);
  show(adminView, true);
  void loadLinks();
  void loadSummary();
  void keyPanel.load();
}

signInForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  signInError.textContent = "";
  signInStatus.textContent = "";
  const username = usernameInput.value.trim();
  if (!username || !passwordInput.value) return refuseSignIn("Enter your username and password.");
  signInButton.disabled = true;
  try {
    const current = await signIn(username, passwordInput.value);
    passwordInput.value = "";
    showAdmin(current);
    who.focus();
  } catch (error) {
    refuseSignIn(signInProblem(error));
  } finally {
    signInButton.disabled = false;
  }
});

function refuseSignIn(text: string): void {
  signInError.textContent = text;
  passwordInput.focus();
  passwordInput.select();
}

function signInProblem(error: unknown): string {
  if (!(error instanceof ApiError)) return "Signing in failed. Try again.";
  if (error.status === 401) return "Wrong username or password.";
  if (error.status === 400) return "Enter your username and password.";
  // 429 carries the wait in plain words already; the rest say what went wrong.
  return error.message;
}

signOutButton.addEventListener("click", async () => {
  if (!session) return;
  signOutError.textContent = "";
  signOutButton.disabled = true;
  try {
    await signOut(session);
  } catch (error) {
    // 401: the session had already ended, which is what was asked for.
    if (!(error instanceof ApiError && error.status === 401)) {
      signOutError.textContent = error instanceof ApiError ? `Signing out failed: ${error.message}` : "Signing out failed. Try again.";
      return;
    }
  } finally {
    signOutButton.disabled = false;
  }
  showSignIn("You are logged out.");
  usernameInput.focus();
});

// The table

/** After a deletion: the table loads again without the deleted rows, and only then the status says so. */
function tableReloadedThenSay(text: string): void {
  linksTitle.focus();
  void loadLinks({ fresh: true }).finally(() => {
    linksStatus.textContent = text;
  });
}

/** `fresh`: after the admin's own change, which the listing must show. */
async function loadLinks({ fresh = false } = {}): Promise<void> {
  loading?.abort();
  const controller = new AbortController();
  loading = controller;
  rememberQuery(query);
  table.setAttribute("aria-busy", "true");
  try {
    const list = await listLinks(query, controller.signal, fresh);
    const pages = Math.max(1, Math.ceil(list.count / query.pageSize));
    if (list.results.length === 0 && query.page > pages) {
      // Past the last page (an old URL, or the last row of a page deleted): show the last one.
      query = { ...query, page: pages };
      return void loadLinks({ fresh });
    }
    linksError.textContent = "";
    const rows = list.results.map((record) => ({ record, row: linkRow(record, rowHost) }));
    fill(
      tableBody,
      rows.map(({ row }) => row.element),
    );
    selection.show(rows.map(({ row }) => row));
    show(tableWrap, rows.length > 0);
    show(empty, rows.length === 0);
    // An estimated count (past 10,000 matches) is said as one; whether a next page exists is always exact.
    pageInfo.textContent = list.count_is_estimate
      ? `Page ${query.page} of about ${pages} · about ${plural(list.count, "link")}`
      : `Page ${query.page} of ${pages} · ${plural(list.count, "link")}`;
    previousButton.disabled = query.page <= 1;
    nextButton.disabled = list.next === null;
    keepFocusOnPager();
    if (rows.length > 0) {
      void drawSparklines(
        rows.map(({ row }) => row),
        rows.map(({ record }) => record.short_url),
        controller.signal,
      );
    }
  } catch (error) {
    if (controller.signal.aborted || handled(error)) return;
    linksError.textContent = error instanceof ApiError ? `The links could not be loaded: ${error.message}` : "The links could not be loaded.";
  } finally {
    if (loading === controller) table.removeAttribute("aria-busy");
  }
}

async function drawSparklines(rows: LinkRow[], codes: string[], signal: AbortSignal): Promise<void> {
  try {
    const days = await dailyVisits(codes, signal);
    for (const [i, row] of rows.entries()) row.showDailyVisits(days.get(codes[i]!) ?? null);
  } catch (error) {
    if (signal.aborted || handled(error)) return;
    for (const row of rows) row.showDailyVisits(null);
  }
}

/** A pager button that just became disabled would drop the keyboard focus: hand it to the other one. */
function keepFocusOnPager(): void {
  const focused = document.activeElement;
  if (focused === nextButton && nextButton.disabled && !previousButton.disabled) previousButton.focus();
  if (focused === previousButton && previousButton.disabled && !nextButton.disabled) nextButton.focus();
}

async function loadSummary(): Promise<void> {
  try {
    const visits = await allVisits(new Date(Date.now() - summaryDays * 24 * 60 * 60 * 1000));
    showVisitSummary(
      { figures: byId("visit-summary-figures"), totalsList: byId("visit-totals"), topList: byId("top-links"), analyticsOff: byId("visit-summary-off") },
      visits,
    );
    show(summary, true);
  } catch (error) {
    // The summary is a nicety: without it the table still does the job.
    if (!handled(error)) show(summary, false);
  }
}

/** The query's search, filters and sort in their fields. */
function showQuery(): void {
  searchInput.value = query.q;
  tagInput.value = query.tag;
  stateSelect.value = query.state;
  sortSelect.value = query.sort;
  pageSizeSelect.value = String(query.pageSize);
  for (const header of sortHeaders) {
    if (header.dataset.sort === query.sort) header.setAttribute("aria-sort", "descending");
    else header.removeAttribute("aria-sort");
  }
}

/** A change a person made: a new history entry, so Back brings the table as it was. */
function changeQuery(change: Partial<LinkQuery>): void {
  linksStatus.textContent = "";
  query = { ...query, ...change };
  rememberQuery(query, { newEntry: true });
  showQuery();
  void loadLinks();
}

// Back and Forward: the table as that entry's address says.
addEventListener("popstate", () => {
  if (!session) return;
  clearTimeout(searchTimer);
  query = queryFromUrl(location.search);
  showQuery();
  void loadLinks();
});

let searchTimer: ReturnType<typeof setTimeout> | undefined;

function search(): void {
  clearTimeout(searchTimer);
  const q = searchInput.value.trim();
  const tag = tagInput.value.trim().toLowerCase();
  // A tag the API would refuse is said on its field; the table stays as it is.
  const badTag = tag !== "" && !tagShape.test(tag);
  byId("link-tag-error").textContent = badTag ? "A tag is 1 to 32 of a-z, 0-9, _ or -." : "";
  if (badTag) tagInput.setAttribute("aria-invalid", "true");
  else tagInput.removeAttribute("aria-invalid");
  const change: Partial<LinkQuery> = {};
  if (q !== query.q) change.q = q;
  if (!badTag && tag !== query.tag) change.tag = tag;
  if (Object.keys(change).length > 0) changeQuery({ ...change, page: 1 });
}

const tagShape = /^[a-z0-9_-]{1,32}$/;

for (const input of [searchInput, tagInput]) {
  input.addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(search, typingPauseMs);
  });
}
filters.addEventListener("submit", (event) => {
  event.preventDefault();
  search();
});
sortSelect.addEventListener("change", () => changeQuery({ sort: sortSelect.value as LinkSort, page: 1 }));
pageSizeSelect.addEventListener("change", () => changeQuery({ pageSize: Number(pageSizeSelect.value) as PageSize, page: 1 }));
stateSelect.addEventListener("change", () => changeQuery({ state: stateSelect.value as LinkQuery["state"], page: 1 }));
previousButton.addEventListener("click", () => changeQuery({ page: Math.max(1, query.page - 1) }));
nextButton.addEventListener("click", () => changeQuery({ page: query.page + 1 }));

// Who is signed in, asked each time the page loads: the CSRF token lives only in this script's memory.

async function start(): Promise<void> {
  try {
    const current = await currentAdminSession();
    if (current) showAdmin(current);
    else showSignIn();
  } catch (error) {
    failure.textContent = `Could not check whether you are signed in: ${error instanceof ApiError ? error.message : "the server did not answer."} Reload the page to try again.`;
  } finally {
    show(checking, false);
  }
}

void start();
