/**
 * Changing a link's options: only those that changed are sent (an emptied
 * field clears its option; "Nothing to save" when none did), and an error
 * the API names a field for is said on that field.
 */
import { domainQuery } from "../../client/lib/link-address.ts";
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { call } from "../../client/lib/api-call.ts";
import { findParts } from "../../client/lib/find-parts.ts";
import { plural } from "../../client/lib/format.ts";
import { changedOptions } from "../../client/lib/link-options.ts";
import { readsOptions, type LinkRecord, type PublicRecord } from "../../client/lib/link-record.ts";
import { plainWords } from "../../client/lib/plain-words.ts";
import { mountOptionFields } from "../option-fields/script.ts";
import { linkOptionsFormParts } from "./parts.ts";

export interface LinkOptionsFormHost {
  /** The link's code. */
  code: string;
  /** The host of its domain (the page's `?domain=`); absent, the default domain. */
  domain?: string;
  credential(): Credential | null;
  /** The link as last read or changed. */
  record(): LinkRecord | null;
  /** The link as changed. */
  saved(record: PublicRecord): void;
  /** The link is gone. */
  missing(): void;
}

export interface LinkOptionsForm {
  /** The fields as `record` has them. */
  fill(record: LinkRecord): void;
}

export function mountLinkOptionsForm(root: HTMLElement, host: LinkOptionsFormHost): LinkOptionsForm {
  const ui = findParts(root, linkOptionsFormParts);
  const fields = mountOptionFields(ui.optionFieldsRoot);
  ui.optionsForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const credential = host.credential();
    const record = host.record();
    if (!credential || !record) return;
    ui.optionsStatus.textContent = "";
    ui.optionsError.textContent = "";
    const chosen = fields.read();
    if (!chosen) return;
    const changes = changedOptions(record, chosen.options, chosen.password);
    if (Object.keys(changes).length === 0) {
      ui.optionsStatus.textContent = "Nothing to save: the options are as they were.";
      return;
    }
    ui.optionsButton.disabled = true;
    try {
      const changed = await call("PUT /shorten/{short_url}", { params: { short_url: host.code }, query: domainQuery(host), body: changes, credential });
      host.saved(changed);
      if (readsOptions(changed)) fields.fill(changed);
      ui.optionsStatus.textContent = `Saved: ${plural(Object.keys(changes).length, "option")} changed.`;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return host.missing();
      if (!fields.showError(error)) ui.optionsError.textContent = `The options were not saved. ${plainWords(error)}`;
    } finally {
      ui.optionsButton.disabled = false;
    }
  });
  return { fill: (record) => fields.fill(record) };
}
