/**
 * A link's page, `/app/links/<code>`: the public summary and options for
 * anyone; with the link's manage token (saved in this browser or pasted
 * here) or an admin session, its visits over time and top lists, a new
 * destination, its options changed, deletion.
 */
import { aliasShape } from "./lib/alias-check.ts";
import { api, ApiError, type Credential } from "./lib/api.ts";
import { copyButton } from "./lib/copy-text.ts";
import { byId, fieldError, fill, h, show } from "./lib/dom.ts";
import { formatCount, formatDateTime, plural, regionName } from "./lib/format.ts";
import { linkCredential, type LinkCredential } from "./lib/link-credential.ts";
import { changedOptions, deviceNames as ruleDeviceNames, stateNames, type LinkOptions, type LinkRule } from "./lib/link-options.ts";
import { optionFields } from "./lib/option-fields.ts";
import { plainWords } from "./lib/plain-words.ts";
import { qrKit } from "./lib/qr-kit.ts";
import { readableUrl } from "./lib/readable-url.ts";
import { forgetLink, manageTokenShape, saveLink, savedLink } from "./lib/saved-links.ts";
import { visitsPanel, type LinkStats } from "./lib/visits-panel.ts";

/** The QR kit, drawn for the link once it is read. */
const linkQr = qrKit();

/** `long_url` is null for a protected link, unless its manage token or an admin asks. */
interface LinkRecord extends LinkOptions {
  short_url: string;
  long_url: string | null;
  link: string;
  access_count: number;
  created_at: string;
  updated_at: string;
}

/**
 * The code in the page's address, decoded; "" (which no link has) when the
 * address holds a malformed escape such as `%E0%A4%A`, so the page says the
 * link does not exist instead of stopping with a script error.
 */
function codeInAddress(pathname: string): string {
  try {
    return decodeURIComponent(pathname.replace(/^\/app\/links\//, "").replace(/\/+$/, ""));
  } catch {
    return "";
  }
}

const code = codeInAddress(location.pathname);
const linkPath = `/shorten/${encodeURIComponent(code)}/`;

const heading = byId("link-heading");
const status = byId("link-status");

/** The record as last read or changed; the credential, once there is one. */
let record: LinkRecord | null = null;
let access: LinkCredential | null = null;

function say(message: string, kind: "error" | "plain"): void {
  status.textContent = message;
  status.classList.toggle("error", kind === "error");
  show(status, true);
}

function showMissing(): void {
  visits.stop();
  document.title = "Link not found · linkgeo";
  heading.textContent = "This short link does not exist";
  show(status, false);
  show(byId("link-view"), false);
  show(byId("link-missing"), true);
}

async function start(): Promise<void> {
  if (!aliasShape.test(code)) return showMissing();
  document.title = `Link ${code} · linkgeo`;
  heading.textContent = `Short link ${code}`;
  let stats: LinkStats;
  try {
    [record, stats] = await Promise.all([api<LinkRecord>(linkPath), api<LinkStats>(`${linkPath}stats/`)]);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return showMissing();
    return say(`The link could not be loaded. ${plainWords(error)}`, "error");
  }
  showSummary(record, stats);
  linkQr.show(record.link, record.short_url);
  shownStats = stats;
  show(status, false);
  show(byId("link-view"), true);

  access = await linkCredential(code);
  await readWithCredential();
  if (access) await manage();
  else askForToken(null);
}

let shownStats: LinkStats | null = null;

function showSummary(link: LinkRecord, stats: LinkStats): void {
  byId<HTMLInputElement>("short-url").value = link.link;
  showDestination(link.long_url);
  byId("stat-count").textContent = formatCount(stats.access_count);
  byId("stat-created").textContent = formatDateTime(link.created_at);
  byId("stat-last").textContent = formatDateTime(stats.last_accessed_at);
  showOptions(link, stats.access_count);
}

function showDestination(longUrl: string | null): void {
  const destination = byId<HTMLAnchorElement>("destination");
  show(destination, longUrl !== null);
  show(byId("destination-hidden"), longUrl === null);
  if (longUrl === null) return;
  destination.href = longUrl;
  destination.textContent = readableUrl(longUrl);
  destination.title = longUrl;
  byId<HTMLInputElement>("new-url").value = longUrl;
}

/** The link's state and options, as anyone may see them (a protected link's addresses only with a credential). */
function showOptions(link: LinkRecord, visits: number): void {
  fill(
    byId("link-badges"),
    h("span", { class: `badge ${link.state}` }, stateNames[link.state]),
    link.password_protected && h("span", { class: "badge protected" }, "Password"),
  );
  const title = byId("link-title");
  title.textContent = link.title ?? "";
  show(title, link.title !== null);
  // Null addresses in a protected link's record are hidden, not absent.
  const hidden = link.password_protected && link.long_url === null;
  const address = (url: string | null, none: string) =>
    url !== null ? h("span", { class: "mono" }, readableUrl(url)) : hidden ? h("span", { class: "muted" }, "hidden by the password") : none;
  const entry = (term: string, ...value: (Node | string)[]) => [h("dt", {}, term), h("dd", {}, ...value)];
  fill(
    byId("link-options"),
    entry("Expires", link.expires_at ? formatDateTime(link.expires_at) : "never"),
    entry("Visits allowed", link.max_visits === null ? "no limit" : `${formatCount(link.max_visits)} (${formatCount(Math.min(visits, link.max_visits))} used)`),
    entry("Once expired or used up", address(link.expired_url, "a page saying the link is no longer available")),
    entry("Redirect status", link.redirect_status === null ? "the service's default" : String(link.redirect_status)),
    entry("Password", link.password_protected ? "yes: visitors must give it" : "no"),
    entry("Tags", link.tags.length === 0 ? "none" : link.tags.join(", ")),
    entry("Forwards the query string", link.forward_query ? "yes" : "no"),
    entry(
      "Rules",
      link.rules.length === 0
        ? "none"
        : h(
            "ol",
            {},
            link.rules.map((rule) => h("li", {}, ruleWords(rule), " → ", address(rule.url, ""))),
          ),
    ),
  );
}

function ruleWords(rule: LinkRule): string {
  const { device, country, language } = rule.when;
  return [device && ruleDeviceNames[device], country && `in ${regionName(country)}`, language && `language ${language}`].filter(Boolean).join(", ");
}

copyButton(byId<HTMLButtonElement>("copy-short"), byId<HTMLInputElement>("short-url"), byId("copy-short-status"));

// Without a credential: the token form

const tokenForm = byId<HTMLFormElement>("token-form");
const tokenInput = byId<HTMLInputElement>("token-input");

function askForToken(problem: string | null): void {
  access = null;
  visits.stop();
  show(byId("visits-panel"), false);
  show(byId("manage-panel"), false);
  show(byId("access-panel"), true);
  byId("access-note").textContent = "";
  fieldError(tokenInput, problem);
}

tokenForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const token = tokenInput.value.trim();
  if (token === "") return failToken("Paste the link's manage token.");
  if (!manageTokenShape.test(token)) return failToken("This is not a manage token: a manage token is letters, digits, - and _ only.");
  const credential: Credential = { kind: "token", token };
  const button = byId<HTMLButtonElement>("token-button");
  button.disabled = true;
  try {
    // The links a token manages: this one, or it is not this link's token.
    const { results } = await api<{ results: LinkRecord[] }>("/shorten/", { credential });
    if (!results.some((managed) => managed.short_url === code)) return failToken("This token does not manage this link.");
  } catch (error) {
    failToken(error instanceof ApiError && (error.status === 401 || error.status === 403) ? "This token does not manage this link." : plainWords(error));
    return;
  } finally {
    button.disabled = false;
  }
  access = { credential, source: "token" };
  await readWithCredential();
  if (record && record.long_url !== null)
    saveLink({ short_url: record.short_url, manage_token: token, link: record.link, long_url: record.long_url, created_at: record.created_at });
  tokenForm.reset();
  fieldError(tokenInput, null);
  show(byId("access-panel"), false);
  await manage();
  byId("visits-heading").focus();
});

function failToken(message: string): void {
  fieldError(tokenInput, message);
  tokenInput.focus();
}

// With a credential: visits, change, delete

async function manage(): Promise<void> {
  if (!access) return;
  byId("access-note").textContent =
    access.source === "token" ? "You manage this link with its manage token, saved in this browser." : `You are signed in as the admin ${access.username}.`;
  show(byId("visits-panel"), true);
  show(byId("manage-panel"), true);
  if (record) editOptions.fill(record);
  await visits.load();
}

const visits = visitsPanel({
  linkPath,
  code,
  mapUrl: byId("top-countries-map").dataset.mapUrl ?? "",
  credential: () => access?.credential ?? null,
  missing: showMissing,
  refused: () =>
    askForToken(
      access?.source === "token"
        ? "The manage token saved in this browser no longer manages this link."
        : "Your admin session has ended: sign in again, or use the link's manage token.",
    ),
  counted: (stats) => {
    shownStats = stats;
    if (record) showSummary(record, stats);
  },
});

/** A protected link's record shows its addresses only to a credential: read again with it. */
async function readWithCredential(): Promise<void> {
  if (!access || !record?.password_protected || record.long_url !== null) return;
  try {
    record = await api<LinkRecord>(linkPath, { credential: access.credential });
    if (shownStats) showSummary(record, shownStats);
  } catch {
    // The visits' call says what is wrong with the credential; the public record stays.
  }
}

// Change the destination

const editForm = byId<HTMLFormElement>("edit-form");
const newUrlInput = byId<HTMLInputElement>("new-url");
const editStatus = byId("edit-status");

editForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!access) return;
  const longUrl = newUrlInput.value.trim();
  editStatus.textContent = "";
  fieldError(newUrlInput, null);
  if (longUrl === "") return failEdit("Enter the new destination.");
  if (!isWebAddress(longUrl)) return failEdit("Enter a full web address, starting with http:// or https://.");
  const button = byId<HTMLButtonElement>("edit-button");
  button.disabled = true;
  try {
    record = await api<LinkRecord>(linkPath, { method: "PUT", body: { long_url: longUrl }, credential: access.credential });
    showDestination(record.long_url);
    const saved = savedLink(code);
    if (saved && record.long_url !== null) saveLink({ ...saved, long_url: record.long_url });
    editStatus.textContent = `Saved: the short link now goes to ${readableUrl(record.long_url ?? longUrl)}.`;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return showMissing();
    failEdit(plainWords(error));
  } finally {
    button.disabled = false;
  }
});

function failEdit(message: string): void {
  fieldError(newUrlInput, message);
  newUrlInput.focus();
}

function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

// Change the options

const optionsForm = byId<HTMLFormElement>("options-form");
const editOptions = optionFields("edit");
const optionsStatus = byId("options-status");
const optionsError = byId("options-error");

optionsForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!access || !record) return;
  optionsStatus.textContent = "";
  optionsError.textContent = "";
  const chosen = editOptions.read();
  if (!chosen) return;
  const changes = changedOptions(record, chosen.options, chosen.password);
  if (Object.keys(changes).length === 0) {
    optionsStatus.textContent = "Nothing to save: the options are as they were.";
    return;
  }
  const button = byId<HTMLButtonElement>("options-button");
  button.disabled = true;
  try {
    record = await api<LinkRecord>(linkPath, { method: "PUT", body: changes, credential: access.credential });
    showOptions(record, shownStats?.access_count ?? record.access_count);
    editOptions.fill(record);
    optionsStatus.textContent = `Saved: ${plural(Object.keys(changes).length, "option")} changed.`;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return showMissing();
    if (!editOptions.showError(error)) optionsError.textContent = `The options were not saved. ${plainWords(error)}`;
  } finally {
    button.disabled = false;
  }
});

// Delete, in two steps

const deleteButton = byId<HTMLButtonElement>("delete-button");
const deleteConfirm = byId("delete-confirm");
const deleteError = byId("delete-error");
deleteButton.setAttribute("aria-expanded", "false");
deleteButton.setAttribute("aria-controls", "delete-confirm");

function askToDelete(open: boolean): void {
  show(deleteConfirm, open);
  deleteButton.setAttribute("aria-expanded", String(open));
  if (open) {
    byId("delete-what").textContent = record?.link ?? code;
    // Cancel first: the safe choice is the one a stray Enter makes.
    byId("delete-no").focus();
  } else {
    deleteButton.focus();
  }
}

deleteButton.addEventListener("click", () => {
  deleteError.textContent = "";
  askToDelete(true);
});
byId("delete-no").addEventListener("click", () => askToDelete(false));
deleteConfirm.addEventListener("keydown", (event) => {
  if (event.key === "Escape") askToDelete(false);
});

byId("delete-yes").addEventListener("click", async () => {
  if (!access) return;
  const yes = byId<HTMLButtonElement>("delete-yes");
  yes.disabled = true;
  // No read of the link once the deletion may have reached it: the answer would be a 404.
  visits.stop();
  try {
    await api<void>(linkPath, { method: "DELETE", credential: access.credential });
    showDeleted();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return showDeleted();
    deleteError.textContent = `The link was not deleted. ${plainWords(error)}`;
    visits.resume();
  } finally {
    yes.disabled = false;
  }
});

function showDeleted(): void {
  forgetLink(code);
  visits.stop();
  document.title = "Link deleted · linkgeo";
  heading.textContent = `Link ${code} deleted`;
  show(byId("link-view"), false);
  show(byId("link-deleted"), true);
  heading.focus();
}

void start();
