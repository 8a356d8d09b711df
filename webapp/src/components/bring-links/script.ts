/**
 * "Bring links from elsewhere" (view.ts): another browser's links file, read
 * as hostile, or one link by its manage token, asked of the API. Each link
 * brought is saved in this browser; `added` then lists them.
 */
import { ApiError } from "../../client/lib/api.ts";
import { call } from "../../client/lib/api-call.ts";
import { findParts, showFieldError, type FoundParts } from "../../client/lib/find-parts.ts";
import { plural } from "../../client/lib/format.ts";
import { plainWords } from "../../client/lib/plain-words.ts";
import { savedDomainOf } from "../../client/lib/saved-domain.ts";
import { manageTokenShape, saveLink, savedAddress, savedLink, savedLinksIn } from "../../client/lib/saved-links.ts";
import { bringLinksParts } from "./parts.ts";

/** A links file is a few hundred bytes a link: 5 MiB holds over ten thousand, and a bigger file is no such file. */
const maxLinksFileBytes = 5 * 1024 * 1024;

type Parts = FoundParts<typeof bringLinksParts.spec>;

export function mount(root: HTMLElement, { added }: { added: () => Promise<void> }): void {
  const parts = findParts(root, bringLinksParts);
  parts.fileForm.addEventListener("submit", (event) => {
    event.preventDefault();
    void bringFile(parts, added);
  });
  parts.tokenForm.addEventListener("submit", (event) => {
    event.preventDefault();
    void bringByToken(parts, added);
  });
  // Offered only now that their submits stay in this script (view.ts).
  parts.fileForm.hidden = false;
  parts.tokenForm.hidden = false;
}

async function bringFile(parts: Parts, added: () => Promise<void>): Promise<void> {
  const refuse = (message: string) => {
    showFieldError(parts.file, message);
    parts.file.focus();
  };
  parts.fileStatus.textContent = "";
  showFieldError(parts.file, null);
  const file = parts.file.files?.[0];
  if (!file) return refuse("Choose the links file to add.");
  if (file.size > maxLinksFileBytes) return refuse("This file is too big to be a links file (at most 5 MB).");
  const found = savedLinksIn(await file.text());
  if (!found) return refuse("This is not a links file: it holds no list of links.");
  // Added oldest first, each going to the top: the file's order is kept, above the links already here.
  const fresh = found.links.filter((link) => !savedLink(savedAddress(link))).reverse();
  for (const link of fresh) saveLink(link);
  parts.fileForm.reset();
  parts.fileStatus.textContent = [
    `Added ${plural(fresh.length, "link")}.`,
    found.links.length > fresh.length ? `${plural(found.links.length - fresh.length, "link was", "links were")} already here.` : "",
    found.refused > 0 ? `${plural(found.refused, "entry was", "entries were")} no link, left out.` : "",
  ]
    .filter(Boolean)
    .join(" ");
  await added();
}

async function bringByToken(parts: Parts, added: () => Promise<void>): Promise<void> {
  const refuse = (message: string) => {
    showFieldError(parts.token, message);
    parts.token.focus();
  };
  const token = parts.token.value.trim();
  parts.tokenStatus.textContent = "";
  showFieldError(parts.token, null);
  if (token === "") return refuse("Paste the manage token of the link.");
  if (!manageTokenShape.test(token)) return refuse("This is not a manage token: a manage token is letters, digits, - and _ only.");
  parts.tokenButton.disabled = true;
  try {
    const { results } = await call("GET /shorten/", { credential: { kind: "token", token } });
    const record = results.length === 1 ? results[0] : undefined;
    // Read with its manage token, the record shows the destination; without it, it is no link this token manages.
    if (!record || record.long_url === null) return refuse("No link has this manage token.");
    // Saved with its domain: a link on another domain is found there, never as the default domain's link of its code.
    const domain = await savedDomainOf(record);
    saveLink({
      short_url: record.short_url,
      manage_token: token,
      link: record.link,
      long_url: record.long_url,
      created_at: record.created_at,
      ...domain,
    });
    parts.tokenForm.reset();
    parts.tokenStatus.textContent = `Added ${record.link} to your links.`;
    await added();
  } catch (error) {
    refuse(error instanceof ApiError && (error.status === 401 || error.status === 403) ? "No link has this manage token." : plainWords(error));
  } finally {
    parts.tokenButton.disabled = false;
  }
}
