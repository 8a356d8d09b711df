import { ApiError } from "../../client/lib/api.ts";
import { findParts } from "../../client/lib/find-parts.ts";
import { isOutage } from "../../client/lib/outage-retry.ts";
import type { BrowserSession } from "../../client/lib/signed-in-session.ts";
import { signInParts } from "./parts.ts";

export interface SignInDeps<S extends BrowserSession> {
  /** Signs in with what was typed: the admin's sign-in or a person's. */
  signIn(username: string, password: string): Promise<S>;
  /** Signed in: the page shows what is behind the form. */
  signedIn(session: S): void;
}

export interface SignInForm {
  /** The form, empty of errors, with `note` above it ("You are signed out."). */
  show(note?: string): void;
  hide(): void;
  /** Puts the keyboard focus in the username field. */
  focus(): void;
}

export function mount<S extends BrowserSession>(root: HTMLElement, deps: SignInDeps<S>): SignInForm {
  const ui = findParts(root, signInParts);

  function refuse(text: string): void {
    ui.signInError.textContent = text;
    ui.signInPassword.focus();
    ui.signInPassword.select();
  }

  ui.signInForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    ui.signInError.textContent = "";
    ui.signInStatus.textContent = "";
    const username = ui.signInUsername.value.trim();
    if (!username || !ui.signInPassword.value) return refuse("Enter your username and password.");
    ui.signInButton.disabled = true;
    try {
      const session = await deps.signIn(username, ui.signInPassword.value);
      ui.signInPassword.value = "";
      deps.signedIn(session);
    } catch (error) {
      refuse(signInProblem(error));
    } finally {
      ui.signInButton.disabled = false;
    }
  });

  return {
    show(note = "") {
      ui.signInStatus.textContent = note;
      ui.signInError.textContent = "";
      root.hidden = false;
    },
    hide() {
      root.hidden = true;
    },
    focus: () => ui.signInUsername.focus(),
  };
}

function signInProblem(error: unknown): string {
  if (!(error instanceof ApiError)) return "Signing in failed. Try again.";
  if (error.status === 401) return "Wrong username or password.";
  if (error.status === 400) return "Enter your username and password.";
  if (isOutage(error)) return "The service is not answering right now, so nobody can sign in. Try again in a moment.";
  // 429 carries the wait in plain words already; the rest say what went wrong.
  return error.message;
}
