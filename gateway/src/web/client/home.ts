/**
 * The home page: shorten a URL (short link, copy, QR code and its downloads,
 * the manage token shown once), and "Your links", the links this browser
 * keeps with their current counts.
 */
import { aliasShape, checkAlias } from "./lib/alias-check.ts";
import { api, ApiError } from "./lib/api.ts";
import { copyButton } from "./lib/copy-text.ts";
import { byId, fill, h, show } from "./lib/dom.ts";
import { formatDateTime, plural } from "./lib/format.ts";
import { newLinkOptions } from "./lib/link-options.ts";
import { optionFields } from "./lib/option-fields.ts";
import { fieldOf, plainWords } from "./lib/plain-words.ts";
import { OfferedFiles } from "./lib/offered-files.ts";
import { plainLook, qrCode, qrSvg } from "./lib/qr-code.ts";
import { offerQrFiles } from "./lib/qr-kit.ts";
import { readableUrl } from "./lib/readable-url.ts";
import { forgetLink, saveLink, savedLinks, type SavedLink } from "./lib/saved-links.ts";
import { webAddressOf } from "./lib/web-address.ts";

interface LinkRecord {
  short_url: string;
  long_url: string;
  link: string;
  access_count: number;
  created_at: string;
  updated_at: string;
}

interface LinkStats {
  short_url: string;
  access_count: number;
  last_accessed_at: string | null;
}

// base64url; an admin token has a dot, and must not be saved as a link's token.
const manageTokenShape = /^[A-Za-z0-9_-]+$/;

const linkPage = (code: string) => `/app/links/${encodeURIComponent(code)}`;

/** Shows `message` under a field and marks it invalid, or clears both. */
function fieldError(input: HTMLInputElement, message: string | null): void {
  const error = byId(`${input.id}-error`);
  error.textContent = message ?? "";
  if (message) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}

// Shorten

const shortenForm = byId<HTMLFormElement>("shorten-form");
const longUrlInput = byId<HTMLInputElement>("long-url");
const aliasInput = byId<HTMLInputElement>("alias");
const shortenButton = byId<HTMLButtonElement>("shorten-button");
const shortenError = byId("shorten-error");
const options = optionFields("new");
const customize = byId<HTMLDetailsElement>("customize");

// Whether the alias typed is free, once typing pauses; a taken one comes with free variants to pick.

const aliasStatus = byId("alias-status");
const aliasSuggestions = byId("alias-suggestions");
let aliasTimer: ReturnType<typeof setTimeout> | undefined;
let aliasChecking: AbortController | undefined;

function clearAliasCheck(): void {
  clearTimeout(aliasTimer);
  aliasChecking?.abort();
  aliasStatus.textContent = "";
  fill(aliasSuggestions);
}

aliasInput.addEventListener("input", () => {
  clearAliasCheck();
  const alias = aliasInput.value.trim();
  if (alias === "") return;
  aliasTimer = setTimeout(async () => {
    const checking = new AbortController();
    aliasChecking = checking;
    const check = await checkAlias(alias, checking.signal);
    if (checking.signal.aborted || !check) return;
    if (!check.taken) {
      aliasStatus.textContent = `No link has “${alias}” yet.`;
      return;
    }
    aliasStatus.textContent = check.suggestions.length > 0 ? `“${alias}” is taken. Free: ` : `“${alias}” is taken.`;
    fill(
      aliasSuggestions,
      check.suggestions.map((free) => {
        const button = h("button", { type: "button", class: "secondary small" }, `Use ${free}`);
        button.addEventListener("click", () => {
          aliasInput.value = free;
          aliasInput.dispatchEvent(new Event("input"));
          aliasInput.focus();
        });
        return button;
      }),
    );
  }, 400);
});

shortenForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const typed = longUrlInput.value.trim();
  const address = webAddressOf(typed);
  const alias = aliasInput.value.trim();
  fieldError(longUrlInput, null);
  fieldError(aliasInput, null);
  options.clearErrors();
  shortenError.textContent = "";
  // A new attempt takes the previous result away: an error must never sit under an earlier "ready" (the link stays in Your links).
  show(byId("result"), false);

  if (typed === "") fieldError(longUrlInput, "Paste the URL you want to shorten.");
  else if (!address) fieldError(longUrlInput, "Enter a web address, like example.com/page or https://example.com/page.");
  if (alias !== "" && !aliasShape.test(alias)) fieldError(aliasInput, "An alias is 3 to 32 letters, digits, _ or -, with no spaces.");
  const invalid = shortenForm.querySelector<HTMLInputElement>('[aria-invalid="true"]');
  if (invalid) {
    // The alias waits behind "Customize": opened, so that the field can take the focus.
    if (customize.contains(invalid)) customize.open = true;
    return invalid.focus();
  }
  const chosen = options.read();
  if (!chosen) return;

  shortenButton.disabled = true;
  shortenButton.textContent = "Shortening…";
  try {
    const created = await api<LinkRecord & { manage_token: string }>("/shorten/", {
      method: "POST",
      body: {
        long_url: address!.url,
        ...(alias === "" ? {} : { short_url: alias }),
        ...newLinkOptions(chosen.options, chosen.password),
      },
    });
    saveLink({
      short_url: created.short_url,
      manage_token: created.manage_token,
      link: created.link,
      long_url: created.long_url,
      created_at: created.created_at,
    });
    shortenForm.reset();
    clearAliasCheck();
    options.reset();
    customize.open = false;
    showResult(created, address!.addedScheme);
    void renderSavedLinks();
  } catch (error) {
    // An option's error is shown on its field, "Customize" opened first so that the field can take the focus.
    const wasOpen = customize.open;
    customize.open = true;
    if (options.showError(error)) return;
    customize.open = wasOpen;
    const field = fieldOf(error);
    const message = plainWords(error);
    if (field === "alias") {
      customize.open = true;
      fieldError(aliasInput, error instanceof ApiError && error.code === "conflict" ? `${message} Choose another alias.` : message);
      aliasInput.focus();
    } else if (field === "url") {
      fieldError(longUrlInput, message);
      longUrlInput.focus();
    } else {
      shortenError.textContent = message;
    }
  } finally {
    shortenButton.disabled = false;
    shortenButton.textContent = "Shorten";
  }
});

// The result, shown once

const downloads = new OfferedFiles();

function showResult(created: LinkRecord & { manage_token: string }, addedScheme: boolean): void {
  byId<HTMLInputElement>("result-url").value = created.link;
  byId<HTMLAnchorElement>("result-open").href = created.link;
  // Phones (and some desktops) hand the link to another app; elsewhere Copy does it.
  show(shareButton, typeof navigator.share === "function");
  const destination = byId("result-destination");
  destination.textContent = readableUrl(created.long_url);
  destination.title = created.long_url;
  show(byId("result-scheme-note"), addedScheme);
  byId<HTMLAnchorElement>("result-page").href = linkPage(created.short_url);
  byId<HTMLInputElement>("token").value = created.manage_token;
  byId("copy-link-status").textContent = "";
  byId("copy-token-status").textContent = "";

  const qr = qrCode(created.link);
  fill(byId("qr"), qrSvg(qr, `QR code of ${created.link}`));
  // The previous result's files are no longer offered: free them.
  downloads.clear();
  offerQrFiles(downloads, qr, plainLook, { svg: byId<HTMLAnchorElement>("download-svg"), png: byId<HTMLAnchorElement>("download-png") }, created.short_url);

  const result = byId("result");
  show(result, true);
  byId("result-heading").focus();
}

copyButton(byId<HTMLButtonElement>("copy-link"), byId<HTMLInputElement>("result-url"), byId("copy-link-status"));

const shareButton = byId<HTMLButtonElement>("share-link");
shareButton.addEventListener("click", () => {
  const url = byId<HTMLInputElement>("result-url").value;
  // A person who closes the share sheet is no error to report.
  navigator.share({ url }).catch(() => {});
});
copyButton(byId<HTMLButtonElement>("copy-token"), byId<HTMLInputElement>("token"), byId("copy-token-status"));

// Your links

const linksList = byId<HTMLUListElement>("links-list");
const linksEmpty = byId("links-empty");

const exportedLinks = new OfferedFiles();

async function renderSavedLinks(): Promise<void> {
  const links = savedLinks();
  show(linksEmpty, links.length === 0);
  show(linksList, links.length > 0);
  offerExport(links);
  const items = links.map((link) => savedLinkItem(link));
  fill(
    linksList,
    items.map((item) => item.element),
  );
  // Every count in one request (POST /shorten/stats/, up to 500 codes each): a long list no longer spends the rate budget.
  const counts = new Map<string, LinkStats>();
  try {
    for (let start = 0; start < links.length; start += maxStatsCodes) {
      const codes = links.slice(start, start + maxStatsCodes).map((link) => link.short_url);
      const { results } = await api<{ results: LinkStats[] }>("/shorten/stats/", { method: "POST", body: { short_urls: codes } });
      for (const stats of results) counts.set(stats.short_url, stats);
    }
  } catch {
    for (const item of items) item.showCount(undefined);
    return;
  }
  for (const [i, item] of items.entries()) item.showCount(counts.get(links[i]!.short_url) ?? null);
}

/** As many codes as POST /shorten/stats/ takes in one request (the API's documented limit). */
const maxStatsCodes = 500;

/** "Your links" as a file (JSON, with the tokens), to keep elsewhere or add in another browser one by one. */
function offerExport(links: SavedLink[]): void {
  exportedLinks.clear();
  const link = byId<HTMLAnchorElement>("links-export");
  if (links.length > 0) exportedLinks.offer(link, new Blob([`${JSON.stringify(links, null, 2)}\n`], { type: "application/json" }), "linkgeo-links.json");
  else link.removeAttribute("href");
  show(byId("links-export-row"), links.length > 0);
}

function savedLinkItem(link: SavedLink): { element: HTMLLIElement; showCount: (stats: LinkStats | null | undefined) => void } {
  const count = h("p", { class: "saved-link-count" }, h("span", { class: "muted" }, "Counting…"));
  const element = h(
    "li",
    { class: "saved-link", "data-code": link.short_url },
    h(
      "div",
      { class: "saved-link-main" },
      h(
        "a",
        { class: "saved-link-title", href: linkPage(link.short_url) },
        link.link.replace(/^https?:\/\//, ""),
        h("span", { class: "visually-hidden" }, ": visits and settings"),
      ),
      h("p", { class: "saved-link-destination truncate", title: link.long_url }, readableUrl(link.long_url)),
      h("p", { class: "hint" }, `Created ${formatDateTime(link.created_at)}`),
    ),
    count,
  );
  /** Its stats; null: no such link any more (deleted); undefined: the counts could not be read. */
  const showCount = (stats: LinkStats | null | undefined) => {
    if (stats) {
      fill(count, h("span", { class: "count" }, plural(stats.access_count, "visit")));
    } else if (stats === null) {
      const forget = h("button", { type: "button", class: "secondary small", "aria-label": `Forget ${link.short_url}` }, "Forget");
      forget.addEventListener("click", () => {
        forgetLink(link.short_url);
        void renderSavedLinks();
        byId("your-links-heading").focus();
      });
      fill(count, h("span", { class: "badge deleted" }, "deleted"), forget);
    } else {
      fill(count, h("span", { class: "muted" }, "count unavailable"));
    }
  };
  return { element, showCount };
}

// Add a link by its manage token

const addForm = byId<HTMLFormElement>("add-form");
const addTokenInput = byId<HTMLInputElement>("add-token");
const addButton = byId<HTMLButtonElement>("add-button");
const addStatus = byId("add-status");

addForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const token = addTokenInput.value.trim();
  addStatus.textContent = "";
  fieldError(addTokenInput, null);
  if (token === "") return failAdd("Paste the manage token of the link.");
  if (!manageTokenShape.test(token)) return failAdd("This is not a manage token: a manage token is letters, digits, - and _ only.");

  addButton.disabled = true;
  try {
    const { results } = await api<{ results: LinkRecord[] }>("/shorten/", { credential: { kind: "token", token } });
    const record = results.length === 1 ? results[0] : undefined;
    if (!record) return failAdd("No link has this manage token.");
    saveLink({ short_url: record.short_url, manage_token: token, link: record.link, long_url: record.long_url, created_at: record.created_at });
    addForm.reset();
    addStatus.textContent = `Added ${record.link} to your links.`;
    await renderSavedLinks();
  } catch (error) {
    failAdd(error instanceof ApiError && (error.status === 401 || error.status === 403) ? "No link has this manage token." : plainWords(error));
  } finally {
    addButton.disabled = false;
  }
});

function failAdd(message: string): void {
  fieldError(addTokenInput, message);
  addTokenInput.focus();
}

// The page offers the form only now that its submit stays in this script (home-page.ts).
show(addForm, true);

void renderSavedLinks();
