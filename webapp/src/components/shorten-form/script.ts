/**
 * The shorten form (view.ts): checks what was typed, sends it as JSON, keeps
 * the new link (with its manage token) in this browser, and hands it to the
 * page; the API's refusals are said on the field they are about, with
 * "Customize" opened when that field waits inside it.
 */
import { ApiError } from "../../client/lib/api.ts";
import { call } from "../../client/lib/api-call.ts";
import { findParts, showFieldError, type FoundParts } from "../../client/lib/find-parts.ts";
import { newLinkOptions } from "../../client/lib/link-options.ts";
import { fieldOf, plainWords } from "../../client/lib/plain-words.ts";
import { saveLink, type SavedLink } from "../../client/lib/saved-links.ts";
import { webAddressOf } from "../../client/lib/web-address.ts";
import { mount as mountAliasField, type AliasField } from "../alias-field/script.ts";
import { mountOptionFields, type OptionFields } from "../option-fields/script.ts";
import { mount as mountUtmBuilder } from "../utm-builder/script.ts";
import { shortenFormParts } from "./parts.ts";

export interface ShortenFormDeps {
  typingPauseMs: number;
  /** A new attempt begins: the previous result must go, so that an error never sits under an earlier "ready". */
  attempting(): void;
  /** The link was made, and saved in this browser as `link`; `addedScheme`: https:// was added to what was typed. */
  created(link: SavedLink, addedScheme: boolean): void;
}

interface Form {
  parts: FoundParts<typeof shortenFormParts.spec>;
  alias: AliasField;
  options: OptionFields;
}

export function mount(root: HTMLElement, deps: ShortenFormDeps): void {
  const parts = findParts(root, shortenFormParts);
  const form: Form = {
    parts,
    alias: mountAliasField(parts.alias, { typingPauseMs: deps.typingPauseMs }),
    options: mountOptionFields(parts.options),
  };
  mountUtmBuilder(parts.utm, { target: parts.url, targetName: "the URL to shorten" });
  parts.url.addEventListener("input", () => showFieldError(parts.url, null));
  parts.form.addEventListener("submit", (event) => {
    event.preventDefault();
    void submit(form, deps);
  });
}

async function submit(form: Form, deps: ShortenFormDeps): Promise<void> {
  const { parts, options } = form;
  deps.attempting();
  parts.error.textContent = "";
  options.clearErrors();
  const address = checkedAddress(form);
  if (!address) return;
  const chosen = options.read();
  if (!chosen) return;
  const alias = form.alias.value();
  parts.button.disabled = true;
  parts.button.textContent = "Shortening…";
  try {
    const created = await call("POST /shorten/", {
      body: { long_url: address.url, ...(alias === "" ? {} : { short_url: alias }), ...newLinkOptions(chosen.options, chosen.password) },
    });
    const { short_url, manage_token, link, created_at } = created;
    // The page sends no credential, and an anonymous link's token is always handed over (null is a key's with links:create alone).
    if (manage_token === null) throw new Error("the service made the link without a manage token");
    // The destination is shown to the holder of its manage token: null would be a service that hid it anyway.
    const saved: SavedLink = { short_url, manage_token, link, long_url: created.long_url ?? address.url, created_at };
    saveLink(saved);
    parts.form.reset();
    form.alias.reset();
    options.reset();
    parts.customize.open = false;
    deps.created(saved, address.addedScheme);
  } catch (error) {
    showRefusal(form, error);
  } finally {
    parts.button.disabled = false;
    parts.button.textContent = "Shorten";
  }
}

/** The address to send, or null when the URL or the alias is plainly wrong: said on its field, which takes the focus. */
function checkedAddress({ parts, alias }: Form): { url: string; addedScheme: boolean } | null {
  const typed = parts.url.value.trim();
  const address = webAddressOf(typed);
  if (typed === "") showFieldError(parts.url, "Paste the URL you want to shorten.");
  else if (!address) showFieldError(parts.url, "Enter a web address, like example.com/page or https://example.com/page.");
  else showFieldError(parts.url, null);
  const aliasWrong = alias.refuseIfWrong() !== null;
  if (!address) {
    parts.url.focus();
    return null;
  }
  if (aliasWrong) {
    // The alias waits behind "Customize": opened, so that the field can take the focus.
    parts.customize.open = true;
    alias.focus();
    return null;
  }
  return address;
}

/** The API's refusal, on the field it is about ("Customize" opened for the alias or an option), or under the form. */
function showRefusal({ parts, alias, options }: Form, error: unknown): void {
  const wasOpen = parts.customize.open;
  // Opened first, so that an option's field can take the focus.
  parts.customize.open = true;
  if (options.showError(error)) return;
  parts.customize.open = wasOpen;
  const field = fieldOf(error);
  const message = plainWords(error);
  if (field === "alias") {
    parts.customize.open = true;
    alias.refuse(error instanceof ApiError && error.code === "conflict" ? `${message} Choose another alias.` : message);
    alias.focus();
  } else if (field === "url") {
    showFieldError(parts.url, message);
    parts.url.focus();
  } else {
    parts.error.textContent = message;
  }
}
