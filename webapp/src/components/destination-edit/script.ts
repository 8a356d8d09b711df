import { type ChangedLink, type LinkRecord, addressOf, changeDestination } from "../../client/lib/admin-links.ts";
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { cloneTemplate } from "../../client/lib/clone-template.ts";
import { findParts, showFieldError } from "../../client/lib/find-parts.ts";
import { webAddressOf } from "../../client/lib/web-address.ts";
import { destinationEditParts } from "./parts.ts";

export interface DestinationEditDeps {
  credential(): Credential;
  /** Handles what is not the form's business (the session ended); true when it did. */
  handled(error: unknown): boolean;
  /** Saved: the link as it is now, and whether https:// was added to what was typed. */
  saved(changed: ChangedLink, addedScheme: boolean): void;
  /** Cancel or Escape. */
  cancelled(): void;
}

/**
 * The form, ready to place in the row, holding the destination as it is. An
 * address typed without a scheme (`example.com/page`) is taken as https, as
 * the home page takes it (lib/web-address.ts); anything else that is no web
 * address is said on the field before anything is sent, and the API's
 * refusal (a blocked host, a private address) the same way.
 */
export function mount(template: HTMLTemplateElement, record: LinkRecord, deps: DestinationEditDeps): HTMLFormElement {
  const form = cloneTemplate<HTMLFormElement>(template);
  const { editCode, editInput, editSave, editCancel } = findParts(form, destinationEditParts);
  editCode.textContent = record.short_url;
  editInput.value = record.long_url ?? "";
  const refuse = (text: string) => {
    showFieldError(editInput, text);
    editInput.focus();
  };

  editCancel.addEventListener("click", () => deps.cancelled());
  form.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !editCancel.disabled) deps.cancelled();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showFieldError(editInput, null);
    const typed = editInput.value.trim();
    if (!typed) return refuse("Enter the new destination: a web address, like example.com/page.");
    const address = webAddressOf(typed);
    if (!address) return refuse("That is not a web address: enter one like example.com/page or https://example.com/page.");
    editSave.disabled = editCancel.disabled = true;
    try {
      deps.saved(await changeDestination(addressOf(record), address.url, deps.credential()), address.addedScheme);
    } catch (error) {
      editSave.disabled = editCancel.disabled = false;
      if (!deps.handled(error)) refuse(editError(error));
    }
  });
  return form;
}

/** The reason a new destination was refused, in plain words. */
function editError(error: unknown): string {
  if (!(error instanceof ApiError)) return "The destination could not be changed.";
  switch (error.code) {
    case "invalid_url":
    case "invalid_request":
      return `That destination cannot be used (${error.message.replace(/\.$/, "")}). Enter a web address, like example.com/page.`;
    case "not_found":
      return "This link no longer exists.";
    case "forbidden":
      return "The server refused the change. Reload the page and try again.";
    default:
      return error.message;
  }
}
