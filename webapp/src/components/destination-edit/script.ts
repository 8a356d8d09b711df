import { changeDestination, type LinkRecord } from "../../client/lib/admin-links.ts";
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { cloneTemplate } from "../../client/lib/clone-template.ts";
import { findParts, showFieldError } from "../../client/lib/find-parts.ts";
import { destinationEditParts } from "./parts.ts";

export interface DestinationEditDeps {
  credential(): Credential;
  /** Handles what is not the form's business (the session ended); true when it did. */
  handled(error: unknown): boolean;
  /** Saved: the link as it is now. */
  saved(record: LinkRecord): void;
  /** Cancel or Escape. */
  cancelled(): void;
}

/**
 * The form, ready to place in the row, holding the destination as it is.
 * The API's refusal (no web address, a blocked host) is said on the field.
 */
export function mount(template: HTMLTemplateElement, record: LinkRecord, deps: DestinationEditDeps): HTMLFormElement {
  const form = cloneTemplate<HTMLFormElement>(template);
  const { editCode, editInput, editSave, editCancel } = findParts(form, destinationEditParts);
  editCode.textContent = record.short_url;
  editInput.value = record.long_url;
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
    const longUrl = editInput.value.trim();
    if (!longUrl) return refuse("Enter the new destination: a web address starting with http:// or https://.");
    editSave.disabled = editCancel.disabled = true;
    try {
      deps.saved(await changeDestination(record.short_url, longUrl, deps.credential()));
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
      return `That destination cannot be used (${error.message.replace(/\.$/, "")}). Enter a full web address starting with http:// or https://.`;
    case "not_found":
      return "This link no longer exists.";
    case "forbidden":
      return "The server refused the change. Reload the page and try again.";
    default:
      return error.message;
  }
}
