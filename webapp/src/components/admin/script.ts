/**
 * The admin page (view.ts). Signed out: the sign-in form. Signed in: the
 * visits summary, the reports' queue (report-queue), every link
 * (link-table), the import (link-import), the API keys (api-keys) and the
 * domains (domains). The sign-in itself is
 * the admin session's (sign-in/signed-in-page.ts). While the service is
 * down, the outage notice says so and each part loads again by itself
 * once it answers.
 */
import { adminKeyCalls } from "../../client/lib/admin-keys.ts";
import { adminSession, type AdminSession } from "../../client/lib/admin-session.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { mount as mountApiKeys, type ApiKeys } from "../api-keys/script.ts";
import type { Domains } from "../domains/script.ts";
import type { ReportQueue } from "../report-queue/script.ts";
import { mount as mountImport, type LinkImport } from "../link-import/script.ts";
import { mount as mountLinkTable, type LinkTable } from "../link-table/script.ts";
import { mount as mountOutage, type Outage } from "../outage-notice/script.ts";
import { mount as mountQrDialog } from "../qr-dialog/script.ts";
import { SignedInPage } from "../sign-in/signed-in-page.ts";
import { mount as mountSummary, type VisitSummary } from "../visit-summary/script.ts";
import { adminParts } from "./parts.ts";

export function mount(root: HTMLElement): void {
  const page = new AdminPage(findParts(root, adminParts));
  void page.signIn.start();
}

class AdminPage {
  readonly signIn: SignedInPage<AdminSession>;
  private readonly outage: Outage;
  private readonly summary: VisitSummary;
  private readonly links: LinkTable;
  private readonly linkImport: LinkImport;
  private readonly keys: ApiKeys;
  /** Mounted once first shown: each script a file of its own, not the page's first download. */
  private domains: Promise<Domains> | undefined;
  private reports: Promise<ReportQueue> | undefined;

  constructor(private readonly ui: FoundParts<typeof adminParts.spec>) {
    this.outage = mountOutage(ui.outage);
    this.signIn = new SignedInPage(
      { ...ui, signedInView: ui.adminView, username: ui.adminName },
      { sessions: adminSession, outage: this.outage, signedIn: () => this.showAdmin(), signedOut: () => this.clear() },
    );
    const credential = () => this.signIn.credential();
    const handled = (error: unknown) => this.signIn.handled(error);
    const qr = mountQrDialog(ui.qrDialog);
    this.summary = mountSummary(ui.summary, { handled, outage: this.outage });
    this.links = mountLinkTable(ui.links, { credential, handled, outage: this.outage, showQr: qr.show });
    this.linkImport = mountImport(ui.linkImport, { credential, handled, imported: (text) => this.links.reloadThenSay(text) });
    this.keys = mountApiKeys(ui.apiKeys, { calls: () => adminKeyCalls, credential, handled, outage: this.outage });
  }

  private panelDeps() {
    return { credential: () => this.signIn.credential(), handled: (error: unknown) => this.signIn.handled(error), outage: this.outage };
  }

  // A script that could not be fetched (the network gone) is fetched again the next time the admin view shows.
  private domainsPanel(): Promise<Domains> {
    this.domains ??= import("../domains/script.ts")
      .then(({ mount }) => mount(this.ui.domains, this.panelDeps()))
      .catch((error: unknown) => {
        this.domains = undefined;
        throw error;
      });
    return this.domains;
  }

  private reportsPanel(): Promise<ReportQueue> {
    this.reports ??= import("../report-queue/script.ts")
      .then(({ mount }) => mount(this.ui.reports, this.panelDeps()))
      .catch((error: unknown) => {
        this.reports = undefined;
        throw error;
      });
    return this.reports;
  }

  private clear(): void {
    this.links.clear();
    this.linkImport.clear();
    this.keys.clear();
    void this.domains?.then((domains) => domains.clear());
    void this.reports?.then((reports) => reports.clear());
  }

  private showAdmin(): void {
    this.links.start();
    void this.summary.load();
    void this.keys.load();
    this.domainsPanel().then(
      (domains) => domains.load(),
      () => {},
    );
    this.reportsPanel().then(
      (reports) => reports.load(),
      () => {},
    );
  }
}
