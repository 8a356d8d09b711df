/**
 * Changing where a link goes: an address typed without a scheme
 * (`example.com/page`) gets `https://`, as on the home page; a stray word is
 * refused on the spot, and what the API refuses is said on the field. The
 * UTM builder puts campaign tags on the address in the field, as on the
 * home page; what is in the field is sent on Save, not before.
 */
import { domainQuery } from "../../client/lib/link-address.ts";
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { call } from "../../client/lib/api-call.ts";
import { findParts, showFieldError } from "../../client/lib/find-parts.ts";
import type { PublicRecord } from "../../client/lib/link-record.ts";
import { plainWords } from "../../client/lib/plain-words.ts";
import { readableUrl } from "../../client/lib/readable-url.ts";
import { webAddressOf } from "../../client/lib/web-address.ts";
import { mount as mountUtmBuilder } from "../utm-builder/script.ts";
import { linkDestinationParts } from "./parts.ts";

export interface LinkDestinationHost {
  /** The link's code. */
  code: string;
  /** The host of its domain (the page's `?domain=`); absent, the default domain. */
  domain?: string;
  credential(): Credential | null;
  /** The link as changed. */
  saved(record: PublicRecord): void;
  /** The link is gone. */
  missing(): void;
}

export interface LinkDestination {
  /**
   * The field as the link has it (null: hidden from this credential, left as
   * it is), unless the person changed what it showed: a record read again
   * (a visit counted, the options saved) does not take away an address being
   * typed or tagged.
   */
  fill(longUrl: string | null): void;
}

export function mountLinkDestination(root: HTMLElement, host: LinkDestinationHost): LinkDestination {
  const ui = findParts(root, linkDestinationParts);
  mountUtmBuilder(ui.utm, { target: ui.newUrl, targetName: "the new destination" });
  /** The destination the field was last given, to tell it from one the person made. */
  let shown: string | null = null;
  const showSaved = (longUrl: string) => {
    ui.newUrl.value = longUrl;
    shown = longUrl;
  };
  const fail = (message: string) => {
    showFieldError(ui.newUrl, message);
    ui.newUrl.focus();
  };
  ui.editForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const credential = host.credential();
    if (!credential) return;
    const typed = ui.newUrl.value.trim();
    ui.editStatus.textContent = "";
    showFieldError(ui.newUrl, null);
    if (typed === "") return fail("Enter the new destination.");
    const address = webAddressOf(typed);
    if (!address) return fail("Enter a web address, like example.com/page or https://example.com/page.");
    ui.editButton.disabled = true;
    try {
      const record = await call("PUT /shorten/{short_url}", {
        params: { short_url: host.code },
        query: domainQuery(host),
        body: { long_url: address.url },
        credential,
      });
      showSaved(record.long_url ?? address.url);
      host.saved(record);
      ui.editStatus.textContent = `Saved: the short link now goes to ${readableUrl(record.long_url ?? address.url)}.`;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return host.missing();
      fail(plainWords(error));
    } finally {
      ui.editButton.disabled = false;
    }
  });
  return {
    fill(longUrl) {
      if (longUrl !== null && (shown === null || ui.newUrl.value === shown)) showSaved(longUrl);
    },
  };
}
