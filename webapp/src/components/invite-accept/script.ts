/**
 * The invite page (view.ts). The invite's token is the address's fragment
 * (`/app/invite#lgi_…`), which a browser never sends, so no log keeps it.
 * A person signed in joins with one button; anyone else makes an account
 * and joins (then is signed in), or signs in first. Joined, the page opens
 * the workspace on the workspaces page.
 */
import { adminSession } from "../../client/lib/admin-session.ts";
import { ApiError } from "../../client/lib/api.ts";
import { show } from "../../client/lib/dom.ts";
import { findParts, showFieldError, type FoundParts } from "../../client/lib/find-parts.ts";
import { isOutage } from "../../client/lib/outage-retry.ts";
import { personSession, type PersonSession } from "../../client/lib/person-session.ts";
import { acceptInvite, type Joined } from "../../client/lib/workspace-calls.ts";
import { mount as mountSignIn, type SignInForm } from "../sign-in/script.ts";
import { inviteAcceptParts } from "./parts.ts";

export function mount(root: HTMLElement): void {
  const page = new InvitePage(findParts(root, inviteAcceptParts));
  void page.start();
}

/** What the API's refusal of an invite means to the person holding it. */
function inviteProblem(error: unknown): string {
  if (!(error instanceof ApiError)) return "Joining failed. Try again.";
  if (error.status === 404) return "This invite is unknown, used already or expired. Ask an owner of the workspace for a new link.";
  if (error.status === 409) return "You are a member of this workspace already: it is on your workspaces page.";
  if (isOutage(error)) return "The service is not answering right now. Try again in a moment.";
  return error.message;
}

/** The invite's token: the address's fragment (a malformed escape in it is no token). */
function tokenInAddress(): string {
  try {
    return decodeURIComponent(location.hash.slice(1));
  } catch {
    return "";
  }
}

class InvitePage {
  private readonly token = tokenInAddress();
  private session: PersonSession | null = null;
  private readonly signIn: SignInForm;

  constructor(private readonly ui: FoundParts<typeof inviteAcceptParts.spec>) {
    this.signIn = mountSignIn(ui.signIn, { signIn: personSession.signIn, signedIn: (session) => this.showJoin(session) });
    ui.join.addEventListener("click", () => void this.join());
    ui.signOut.addEventListener("click", () => void this.signOut());
    ui.accountForm.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.makeAccount();
    });
  }

  async start(): Promise<void> {
    try {
      if (!this.token.startsWith("lgi_")) {
        this.ui.failure.textContent = "This invite link is incomplete: open the whole link you were given, or ask an owner of the workspace for a new one.";
        return;
      }
      // An admin's sign-in beside a person's is two, which the API refuses: say so rather than make a second.
      const admin = await adminSession.current().catch(() => null);
      if (admin) {
        this.ui.failure.textContent = `You are signed in as the admin ${admin.username} in this browser: sign out on the Admin page first, then open the invite link again.`;
        return;
      }
      const current = await personSession.current();
      if (current) this.showJoin(current);
      else this.showNewcomer();
    } catch (error) {
      this.ui.failure.textContent = `Could not check whether you are signed in: ${error instanceof ApiError ? error.message : "the server did not answer."} Reload the page to try again.`;
    } finally {
      show(this.ui.checking, false);
    }
  }

  private showJoin(session: PersonSession): void {
    this.session = session;
    this.ui.joinName.textContent = session.username;
    this.ui.joinError.textContent = "";
    show(this.ui.newAccount, false);
    show(this.ui.haveAccount, false);
    this.signIn.hide();
    show(this.ui.joinAs, true);
    this.ui.join.focus();
  }

  private showNewcomer(note = ""): void {
    this.session = null;
    show(this.ui.joinAs, false);
    show(this.ui.newAccount, true);
    show(this.ui.haveAccount, true);
    this.signIn.show(note);
  }

  private async join(): Promise<void> {
    if (!this.session) return;
    this.ui.joinError.textContent = "";
    this.ui.join.disabled = true;
    try {
      this.joined(await acceptInvite(this.token, { credential: { kind: "session", csrfToken: this.session.csrf_token } }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return this.showNewcomer("Your sign-in has ended. Sign in again to join.");
      this.ui.joinError.textContent = inviteProblem(error);
    } finally {
      this.ui.join.disabled = false;
    }
  }

  private async makeAccount(): Promise<void> {
    const { ui } = this;
    showFieldError(ui.accountUsername, null);
    showFieldError(ui.accountPassword, null);
    ui.accountError.textContent = "";
    const username = ui.accountUsername.value.trim();
    const password = ui.accountPassword.value;
    if (!username) return this.fieldError(ui.accountUsername, "Choose a username.");
    if (password.length < 8) return this.fieldError(ui.accountPassword, "Choose a password of at least 8 characters.");
    ui.accountCreate.disabled = true;
    try {
      const joined = await acceptInvite(this.token, { account: { username, password } });
      // The account is made and in the workspace: sign it in, so the workspace opens at once.
      const signedIn = await personSession.signIn(username, password).then(
        () => true,
        () => false,
      );
      if (signedIn) return this.joined(joined);
      ui.accountForm.reset();
      show(ui.newAccount, false);
      show(ui.haveAccount, false);
      this.signIn.show("Your account is made, and has joined the workspace. Sign in to open it.");
      this.signIn.focus();
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && /^password\b/.test(error.message)) return this.fieldError(ui.accountPassword, error.message);
      if (error instanceof ApiError && (error.status === 409 || (error.status === 400 && /^username\b/.test(error.message))))
        return this.fieldError(
          ui.accountUsername,
          error.status === 409 ? "This username is taken: choose another, or sign in below if it is yours." : error.message,
        );
      ui.accountError.textContent = inviteProblem(error);
    } finally {
      ui.accountCreate.disabled = false;
    }
  }

  private fieldError(field: HTMLInputElement, message: string): void {
    showFieldError(field, message);
    field.focus();
  }

  /** The workspace opens; the invite's address leaves the history (used, it is no use to anyone). */
  private joined(joined: Joined): void {
    location.replace(`/app/workspaces?workspace=${encodeURIComponent(String(joined.workspace))}`);
  }

  private async signOut(): Promise<void> {
    if (!this.session) return;
    this.ui.joinError.textContent = "";
    try {
      await personSession.signOut(this.session);
    } catch (error) {
      // 401: the sign-in had ended already, which is what was asked for.
      if (!(error instanceof ApiError && error.status === 401)) {
        this.ui.joinError.textContent = error instanceof ApiError ? `Signing out failed: ${error.message}` : "Signing out failed. Try again.";
        return;
      }
    }
    this.showNewcomer("You are signed out.");
    this.signIn.focus();
  }
}
