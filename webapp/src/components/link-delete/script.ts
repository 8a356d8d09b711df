/**
 * Deleting a link, in two steps: the question first, Cancel focused (the
 * safe choice is the one a stray Enter makes), Escape cancels. The page's
 * reads of the link stop before the deletion may reach it: their answer
 * would be a 404.
 */
import { domainQuery } from "../../client/lib/link-address.ts";
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { call } from "../../client/lib/api-call.ts";
import { show } from "../../client/lib/dom.ts";
import { findParts } from "../../client/lib/find-parts.ts";
import { plainWords } from "../../client/lib/plain-words.ts";
import { linkDeleteParts } from "./parts.ts";

export interface LinkDeleteHost {
  /** The link's code. */
  code: string;
  /** The host of its domain (the page's `?domain=`); absent, the default domain. */
  domain?: string;
  credential(): Credential | null;
  /** The short link, as the question names it. */
  link(): string;
  /** Stops the page's reads of the link, before it is deleted. */
  stopReading(): void;
  /** The deletion failed: the page reads the link again. */
  resumeReading(): void;
  /** The link is deleted (or already was). */
  deleted(): void;
}

export function mountLinkDelete(root: HTMLElement, host: LinkDeleteHost): void {
  const ui = findParts(root, linkDeleteParts);
  const ask = (open: boolean) => {
    show(ui.deleteConfirm, open);
    ui.deleteButton.setAttribute("aria-expanded", String(open));
    if (!open) return ui.deleteButton.focus();
    ui.deleteWhat.textContent = host.link();
    ui.deleteNo.focus();
  };
  ui.deleteButton.addEventListener("click", () => {
    ui.deleteError.textContent = "";
    ask(true);
  });
  ui.deleteNo.addEventListener("click", () => ask(false));
  ui.deleteConfirm.addEventListener("keydown", (event) => {
    if (event.key === "Escape") ask(false);
  });
  ui.deleteYes.addEventListener("click", async () => {
    const credential = host.credential();
    if (!credential) return;
    ui.deleteYes.disabled = true;
    host.stopReading();
    try {
      await call("DELETE /shorten/{short_url}", { params: { short_url: host.code }, query: domainQuery(host), credential });
      host.deleted();
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return host.deleted();
      ui.deleteError.textContent = `The link was not deleted. ${plainWords(error)}`;
      host.resumeReading();
    } finally {
      ui.deleteYes.disabled = false;
    }
  });
}
