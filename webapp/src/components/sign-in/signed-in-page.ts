/**
 * What a page behind a sign-in does with it, the admin page's and the
 * workspaces page's alike: asks who is signed in each time it loads (the
 * sign-in is an HttpOnly cookie no script sees; the page keeps only its
 * CSRF token, in memory), shows the sign-in form or the signed-in view,
 * turns a 401 while signed in into the form again (the sign-in expired,
 * or ended in another tab), and signs out.
 */
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { show } from "../../client/lib/dom.ts";
import type { BrowserSession, SessionOf } from "../../client/lib/signed-in-session.ts";
import type { Outage } from "../outage-notice/script.ts";
import { mount as mountSignIn, type SignInForm } from "./script.ts";

/** The page's elements this owns: the sign-in form's root, the signed-in view, and the lines about either. */
export interface SignedInPageParts {
  checking: HTMLElement;
  failure: HTMLElement;
  signIn: HTMLElement;
  signedInView: HTMLElement;
  /** "Signed in as …", focused once signed in. */
  who: HTMLElement;
  username: HTMLElement;
  signOut: HTMLButtonElement;
  signOutError: HTMLElement;
}

export interface SignedInPageHooks<S extends BrowserSession> {
  /** Which sign-in: the admin's or a person's. */
  sessions: SessionOf<S>;
  outage: Outage;
  /** Signed in (the view is shown): the page loads what it shows. */
  signedIn(session: S): void;
  /** Signed out (the view is hidden): the page forgets what it showed. */
  signedOut(): void;
}

export class SignedInPage<S extends BrowserSession> {
  private current: S | null = null;
  private readonly form: SignInForm;

  constructor(
    private readonly ui: SignedInPageParts,
    private readonly hooks: SignedInPageHooks<S>,
  ) {
    this.form = mountSignIn(ui.signIn, {
      signIn: hooks.sessions.signIn,
      signedIn: (session) => {
        this.showSignedIn(session);
        ui.who.focus();
      },
    });
    ui.signOut.addEventListener("click", () => void this.signOut());
  }

  /** The sign-in, or null when signed out. */
  get session(): S | null {
    return this.current;
  }

  /** Who is signed in, asked each time the page loads: the CSRF token lives only in this script's memory. */
  async start(): Promise<void> {
    try {
      const current = await this.hooks.sessions.current();
      this.hooks.outage.answered("session");
      this.ui.failure.textContent = "";
      if (current) this.showSignedIn(current);
      else this.showSignIn("");
    } catch (error) {
      if (this.hooks.outage.retryLater("session", error, () => this.start())) return;
      this.ui.failure.textContent = `Could not check whether you are signed in: ${error instanceof ApiError ? error.message : "the server did not answer."} Reload the page to try again.`;
    } finally {
      show(this.ui.checking, false);
    }
  }

  /** The credential of a change: the cookie goes by itself, this adds its CSRF token. */
  credential(): Credential {
    if (!this.current) throw new ApiError(401, "unauthorized", "You are signed out.");
    return { kind: "session", csrfToken: this.current.csrf_token };
  }

  /** A 401 while signed in means the sign-in ended (expired, or signed out in another tab): back to the form. True when it was that. */
  handled(error: unknown): boolean {
    if (!(error instanceof ApiError && error.status === 401) || !this.current) return false;
    // Two sign-ins came with the request (an admin's and a person's, or a cookie another page of the host set): the API takes none.
    this.showSignIn(
      error.message.startsWith("several")
        ? "Another sign-in came from this browser: sign out of it first."
        : "Your sign-in has ended. Sign in again to continue.",
    );
    this.form.focus();
    return true;
  }

  private showSignIn(note: string): void {
    this.current = null;
    this.hooks.outage.clear();
    this.hooks.signedOut();
    this.ui.signOutError.textContent = "";
    show(this.ui.signedInView, false);
    this.form.show(note);
  }

  private showSignedIn(session: S): void {
    this.current = session;
    this.ui.username.textContent = session.username;
    this.form.hide();
    show(this.ui.signedInView, true);
    this.hooks.signedIn(session);
  }

  private async signOut(): Promise<void> {
    if (!this.current) return;
    const { signOut: button, signOutError } = this.ui;
    signOutError.textContent = "";
    button.disabled = true;
    try {
      await this.hooks.sessions.signOut(this.current);
    } catch (error) {
      // 401: the sign-in had already ended, which is what was asked for.
      if (!(error instanceof ApiError && error.status === 401)) {
        signOutError.textContent = error instanceof ApiError ? `Signing out failed: ${error.message}` : "Signing out failed. Try again.";
        return;
      }
    } finally {
      button.disabled = false;
    }
    this.showSignIn("You are signed out.");
    this.form.focus();
  }
}
