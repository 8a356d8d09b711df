/**
 * The admin page (view.ts). Signed out: the sign-in form. Signed in: the
 * visits summary, every link (link-table), the import (link-import) and
 * the API keys (api-keys) and the domains (domains). The session is an HttpOnly cookie this script
 * never sees; it keeps only the session's CSRF token, in memory, and asks
 * for it again (GET /admin/session) each time the page loads. While the
 * service is down, the outage notice says so and each part loads again by
 * itself once it answers.
 */
import { currentAdminSession, signOut, type AdminSession } from "../../client/lib/admin-session.ts";
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { show } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { mount as mountSignIn, type SignInForm } from "../admin-sign-in/script.ts";
import { mount as mountApiKeys, type ApiKeys } from "../api-keys/script.ts";
import type { Domains } from "../domains/script.ts";
import { mount as mountImport, type LinkImport } from "../link-import/script.ts";
import { mount as mountLinkTable, type LinkTable } from "../link-table/script.ts";
import { mount as mountOutage, type Outage } from "../outage-notice/script.ts";
import { mount as mountQrDialog } from "../qr-dialog/script.ts";
import { mount as mountSummary, type VisitSummary } from "../visit-summary/script.ts";
import { adminParts } from "./parts.ts";

export function mount(root: HTMLElement): void {
  const page = new AdminPage(findParts(root, adminParts));
  void page.start();
}

class AdminPage {
  private session: AdminSession | null = null;
  private readonly outage: Outage;
  private readonly signIn: SignInForm;
  private readonly summary: VisitSummary;
  private readonly links: LinkTable;
  private readonly linkImport: LinkImport;
  private readonly keys: ApiKeys;
  /** Mounted once first shown: its script is a file of its own, not the page's first download. */
  private domains: Promise<Domains> | undefined;

  constructor(private readonly ui: FoundParts<typeof adminParts.spec>) {
    const credential = () => this.credential();
    const handled = (error: unknown) => this.handled(error);
    this.outage = mountOutage(ui.outage);
    this.signIn = mountSignIn(ui.signIn, {
      signedIn: (session) => {
        this.showAdmin(session);
        ui.who.focus();
      },
    });
    const qr = mountQrDialog(ui.qrDialog);
    this.summary = mountSummary(ui.summary, { handled, outage: this.outage });
    this.links = mountLinkTable(ui.links, { credential, handled, outage: this.outage, showQr: qr.show });
    this.linkImport = mountImport(ui.linkImport, { credential, handled, imported: (text) => this.links.reloadThenSay(text) });
    this.keys = mountApiKeys(ui.apiKeys, { credential, handled, outage: this.outage });
    ui.signOut.addEventListener("click", () => void this.signOut());
  }

  /** Who is signed in, asked each time the page loads: the CSRF token lives only in this script's memory. */
  async start(): Promise<void> {
    try {
      const current = await currentAdminSession();
      this.outage.answered("session");
      this.ui.failure.textContent = "";
      if (current) this.showAdmin(current);
      else this.showSignIn();
    } catch (error) {
      if (this.outage.retryLater("session", error, () => this.start())) return;
      this.ui.failure.textContent = `Could not check whether you are signed in: ${error instanceof ApiError ? error.message : "the server did not answer."} Reload the page to try again.`;
    } finally {
      show(this.ui.checking, false);
    }
  }

  private domainsPanel(): Promise<Domains> {
    const deps = { credential: () => this.credential(), handled: (error: unknown) => this.handled(error), outage: this.outage };
    // A script that could not be fetched (the network gone) is fetched again the next time the admin view shows.
    this.domains ??= import("../domains/script.ts")
      .then(({ mount }) => mount(this.ui.domains, deps))
      .catch((error: unknown) => {
        this.domains = undefined;
        throw error;
      });
    return this.domains;
  }

  private credential(): Credential {
    if (!this.session) throw new ApiError(401, "unauthorized", "You are signed out.");
    return { kind: "session", csrfToken: this.session.csrf_token };
  }

  /** A 401 while signed in means the session ended (expired, or signed out in another tab): back to the form. */
  private handled(error: unknown): boolean {
    if (!(error instanceof ApiError && error.status === 401) || !this.session) return false;
    this.showSignIn("Your session has ended. Sign in again to continue.");
    this.signIn.focus();
    return true;
  }

  private showSignIn(note = ""): void {
    this.session = null;
    this.outage.clear();
    this.links.clear();
    this.linkImport.clear();
    this.keys.clear();
    void this.domains?.then((domains) => domains.clear());
    this.ui.signOutError.textContent = "";
    show(this.ui.adminView, false);
    this.signIn.show(note);
  }

  private showAdmin(current: AdminSession): void {
    this.session = current;
    this.ui.adminName.textContent = current.username;
    this.signIn.hide();
    show(this.ui.adminView, true);
    this.links.start();
    void this.summary.load();
    void this.keys.load();
    this.domainsPanel().then(
      (domains) => domains.load(),
      () => {},
    );
  }

  private async signOut(): Promise<void> {
    if (!this.session) return;
    const { signOut: button, signOutError } = this.ui;
    signOutError.textContent = "";
    button.disabled = true;
    try {
      await signOut(this.session);
    } catch (error) {
      // 401: the session had already ended, which is what was asked for.
      if (!(error instanceof ApiError && error.status === 401)) {
        signOutError.textContent = error instanceof ApiError ? `Signing out failed: ${error.message}` : "Signing out failed. Try again.";
        return;
      }
    } finally {
      button.disabled = false;
    }
    this.showSignIn("You are logged out.");
    this.signIn.focus();
  }
}
