/**
 * The Your links page: every link this browser keeps, with their counts (one
 * request per 500), searched as typed, downloaded as a file with their
 * tokens, and brought in from such a file or by one link's manage token.
 */
import { api, ApiError } from "./lib/api.ts";
import { byId, fieldError, show } from "./lib/dom.ts";
import { plural } from "./lib/format.ts";
import { OfferedFiles } from "./lib/offered-files.ts";
import { plainWords } from "./lib/plain-words.ts";
import { showSavedLinks } from "./lib/saved-link-list.ts";
import { manageTokenShape, saveLink, savedLink, savedLinks, savedLinksIn, type SavedLink } from "./lib/saved-links.ts";

interface LinkRecord {
  short_url: string;
  long_url: string;
  link: string;
  created_at: string;
}

/** A links file is a few hundred bytes a link: 5 MiB holds over ten thousand, and a bigger file is no such file. */
const maxLinksFileBytes = 5 * 1024 * 1024;

const list = byId("links-list");
const searchInput = byId<HTMLInputElement>("links-search");
const summary = byId("links-summary");
const exportedLinks = new OfferedFiles();

/** The links as last shown: the search filters these, without reading storage again at every key. */
let shown: SavedLink[] = [];

async function renderLinks(): Promise<void> {
  const links = savedLinks();
  shown = links;
  show(byId("links-empty"), links.length === 0);
  show(list, links.length > 0);
  show(byId("links-search-form"), links.length > 0);
  offerExport(links);
  const listed = showSavedLinks(list, links, () => {
    void renderLinks();
    byId("your-links-heading").focus();
  });
  applySearch(links);
  await listed;
}

/** Hides the items that do not match what is typed, and says how many do. */
function applySearch(links: readonly SavedLink[]): void {
  const typed = searchInput.value.trim().toLowerCase();
  const matching = new Set(
    links
      .filter((link) => typed === "" || [link.short_url, link.link, link.long_url].some((text) => text.toLowerCase().includes(typed)))
      .map((link) => link.short_url),
  );
  for (const item of list.querySelectorAll<HTMLElement>("li[data-code]")) item.hidden = !matching.has(item.dataset.code ?? "");
  if (links.length === 0) summary.textContent = "";
  else if (typed === "") summary.textContent = plural(links.length, "link");
  else if (matching.size === 0) summary.textContent = `No link matches “${searchInput.value.trim()}”.`;
  else summary.textContent = `${matching.size} of ${plural(links.length, "link")} match “${searchInput.value.trim()}”.`;
}

searchInput.addEventListener("input", () => applySearch(shown));
byId<HTMLFormElement>("links-search-form").addEventListener("submit", (event) => event.preventDefault());

/** Your links as a file (JSON, with the tokens), to keep elsewhere or to add in another browser. */
function offerExport(links: SavedLink[]): void {
  exportedLinks.clear();
  const link = byId<HTMLAnchorElement>("links-export");
  if (links.length > 0) exportedLinks.offer(link, new Blob([`${JSON.stringify(links, null, 2)}\n`], { type: "application/json" }), "linkgeo-links.json");
  else link.removeAttribute("href");
  show(byId("links-export-row"), links.length > 0);
}

// Bring links from another browser: its links file

const fileForm = byId<HTMLFormElement>("file-form");
const fileInput = byId<HTMLInputElement>("links-file");
const fileStatus = byId("file-status");

fileForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  fileStatus.textContent = "";
  fieldError(fileInput, null);
  const file = fileInput.files?.[0];
  if (!file) return failFile("Choose the links file to add.");
  if (file.size > maxLinksFileBytes) return failFile("This file is too big to be a links file (at most 5 MB).");
  const found = savedLinksIn(await file.text());
  if (!found) return failFile("This is not a links file: it holds no list of links.");
  // Added oldest first, each going to the top: the file's order is kept, above the links already here.
  const added = found.links.filter((link) => !savedLink(link.short_url)).reverse();
  for (const link of added) saveLink(link);
  fileForm.reset();
  fileStatus.textContent = [
    `Added ${plural(added.length, "link")}.`,
    found.links.length > added.length ? `${plural(found.links.length - added.length, "link was", "links were")} already here.` : "",
    found.refused > 0 ? `${plural(found.refused, "entry was", "entries were")} no link, left out.` : "",
  ]
    .filter(Boolean)
    .join(" ");
  await renderLinks();
});

function failFile(message: string): void {
  fieldError(fileInput, message);
  fileInput.focus();
}

// Bring one link by its manage token

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
    await renderLinks();
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

// The page offers the forms only now that their submits stay in this script (your-links-page.ts).
show(fileForm, true);
show(addForm, true);

void renderLinks();
