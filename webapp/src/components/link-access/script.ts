/**
 * The manage-token form: a token pasted is checked against the links it
 * manages (this one, or it is not this link's token) before the page uses it.
 */
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { call } from "../../client/lib/api-call.ts";
import { show } from "../../client/lib/dom.ts";
import { findParts, showFieldError } from "../../client/lib/find-parts.ts";
import { plainWords } from "../../client/lib/plain-words.ts";
import { manageTokenShape } from "../../client/lib/saved-links.ts";
import { linkAccessParts } from "./parts.ts";

export interface LinkAccessHost {
  /** The link's code. */
  code: string;
  /** A token that manages this link was given. */
  granted(credential: Credential, token: string): Promise<void>;
}

export interface LinkAccess {
  /** Shows the form, with `problem` on its field (why the last credential no longer does). */
  ask(problem: string | null): void;
}

export function mountLinkAccess(root: HTMLElement, host: LinkAccessHost): LinkAccess {
  const ui = findParts(root, linkAccessParts);
  const fail = (message: string) => {
    showFieldError(ui.tokenInput, message);
    ui.tokenInput.focus();
  };
  ui.tokenForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const token = ui.tokenInput.value.trim();
    if (token === "") return fail("Paste the link's manage token.");
    if (!manageTokenShape.test(token)) return fail("This is not a manage token: a manage token is letters, digits, - and _ only.");
    const credential: Credential = { kind: "token", token };
    ui.tokenButton.disabled = true;
    const refusal = await tokenRefusal(credential, host.code).finally(() => (ui.tokenButton.disabled = false));
    if (refusal) return fail(refusal);
    ui.tokenForm.reset();
    showFieldError(ui.tokenInput, null);
    show(root, false);
    await host.granted(credential, token);
  });
  return {
    ask(problem) {
      show(root, true);
      showFieldError(ui.tokenInput, problem);
    },
  };
}

/** Why `credential` cannot manage the link `code`, or null when it can: the links a token manages are this one, or it is not this link's token. */
async function tokenRefusal(credential: Credential, code: string): Promise<string | null> {
  try {
    const { results } = await call("GET /shorten/", { credential });
    return results.some((managed) => managed.short_url === code) ? null : "This token does not manage this link.";
  } catch (error) {
    return error instanceof ApiError && (error.status === 401 || error.status === 403) ? "This token does not manage this link." : plainWords(error);
  }
}
