/**
 * The home page: shorten a URL (short link, copy, QR code and its downloads,
 * the manage token shown once), and the latest of the links this browser
 * keeps, with their current counts (the Your links page has them all).
 */
import { aliasShape, checkAlias } from "./lib/alias-check.ts";
import { api, ApiError } from "./lib/api.ts";
import { copyButton } from "./lib/copy-text.ts";
import { byId, fieldError, fill, h, show } from "./lib/dom.ts";
import { newLinkOptions } from "./lib/link-options.ts";
import { optionFields } from "./lib/option-fields.ts";
import { fieldOf, plainWords } from "./lib/plain-words.ts";
import { OfferedFiles } from "./lib/offered-files.ts";
import { plainLook, qrCode, qrSvg } from "./lib/qr-code.ts";
import type { LinkRecord } from "./lib/admin-links.ts";
import { offerQrFiles } from "./lib/qr-kit.ts";
import { readableUrl } from "./lib/readable-url.ts";
import { showSavedLinks, linkPage } from "./lib/saved-link-list.ts";
import { saveLink, savedLinks } from "./lib/saved-links.ts";
import { typingPauseMs } from "./lib/typing-pause.ts";
import { webAddressOf } from "./lib/web-address.ts";

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
  }, typingPauseMs);
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
    void renderLatestLinks();
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

// Your latest links: the first few of this browser's, the rest on the Your links page.

const latestShown = 5;

async function renderLatestLinks(): Promise<void> {
  const links = savedLinks();
  const list = byId("links-list");
  show(byId("links-empty"), links.length === 0);
  show(list, links.length > 0);
  byId("links-all").textContent = links.length > latestShown ? `All ${links.length} of your links` : "Your links";
  show(byId("links-all-row"), true);
  await showSavedLinks(list, links.slice(0, latestShown), () => {
    void renderLatestLinks();
    byId("your-links-heading").focus();
  });
}

void renderLatestLinks();
