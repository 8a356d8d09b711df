/**
 * A link's page, `/app/links/<code>`: the public card and QR code for
 * anyone; with the link's manage token (saved in this browser or pasted
 * here) or an admin session, its visits, a new destination, its options
 * changed, deletion. While the service does not answer (down, restarting,
 * the network gone) the page says so and loads again by itself once it
 * does (lib/outage-retry.ts).
 */
import { domainQuery, type LinkAddress } from "../../client/lib/link-address.ts";
import { aliasShape } from "../../client/lib/alias-check.ts";
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { call } from "../../client/lib/api-call.ts";
import { show } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { linkCredential, type LinkCredential } from "../../client/lib/link-credential.ts";
import { readsOptions, type LinkStats, type PublicRecord } from "../../client/lib/link-record.ts";
import { outageWords, untilAnswered } from "../../client/lib/outage-retry.ts";
import { plainWords } from "../../client/lib/plain-words.ts";
import { savedDomainOf } from "../../client/lib/saved-domain.ts";
import { forgetLink, saveLink, savedLink } from "../../client/lib/saved-links.ts";
import { mountLinkAccess, type LinkAccess } from "../link-access/script.ts";
import { mountLinkDelete } from "../link-delete/script.ts";
import { mountLinkDestination, type LinkDestination } from "../link-destination/script.ts";
import { mountLinkOptionsForm, type LinkOptionsForm } from "../link-options-form/script.ts";
import { mountLinkSummary, type LinkSummary } from "../link-summary/script.ts";
import { mountQrKit, type QrKit } from "../qr-kit/script.ts";
import { mountVisitsPanel, type VisitsPanel } from "../visits-panel/script.ts";
import { linkDashboardParts } from "./parts.ts";

type Parts = FoundParts<typeof linkDashboardParts.spec>;

/** The page of the link `code` on `domain` (from the page's address: lib/link-record.ts), under `root`. */
export function mountLinkDashboard(root: HTMLElement, code: string, domain?: string): void {
  void new LinkDashboard(findParts(root, linkDashboardParts), code, domain).start();
}

class LinkDashboard {
  /** The record and its count as last read or changed; the credential, once there is one. */
  private record: PublicRecord | null = null;
  private stats: LinkStats | null = null;
  private access: LinkCredential | null = null;
  private readonly summary: LinkSummary;
  private readonly qr: QrKit;
  private readonly tokenForm: LinkAccess;
  private readonly visits: VisitsPanel;
  private readonly destination: LinkDestination;
  private readonly options: LinkOptionsForm;
  /** The link this page is about: its code on its domain (absent: the default one). */
  private readonly address: LinkAddress;

  constructor(
    private readonly ui: Parts,
    private readonly code: string,
    private readonly domain: string | undefined,
  ) {
    this.address = domain === undefined ? { code } : { code, domain };
    const credential = () => this.access?.credential ?? null;
    const missing = () => this.showMissing();
    this.summary = mountLinkSummary(ui.summaryRoot);
    this.qr = mountQrKit(ui.qrRoot);
    this.tokenForm = mountLinkAccess(ui.accessRoot, { code, granted: (given, token) => this.granted(given, token) });
    this.visits = mountVisitsPanel(ui.visitsRoot, {
      code,
      domain,
      credential,
      openToAnyone: () => this.record?.public_stats === true,
      missing,
      // Without a credential, a refusal is the report closed meanwhile: the page goes back to asking for the token.
      refused: () => (this.access ? this.askForToken(this.refusal()) : show(this.ui.visitsRoot, false)),
      counted: (stats) => {
        this.stats = stats;
        this.showLink();
      },
    });
    this.destination = mountLinkDestination(ui.destinationRoot, { code, domain, credential, missing, saved: (record) => this.destinationSaved(record) });
    this.options = mountLinkOptionsForm(ui.optionsRoot, {
      code,
      domain,
      credential,
      missing,
      record: () => (this.record && readsOptions(this.record) ? this.record : null),
      saved: (record) => this.changed(record),
    });
    mountLinkDelete(ui.deleteRoot, {
      code,
      domain,
      credential,
      link: () => this.record?.link ?? code,
      stopReading: () => this.visits.stop(),
      resumeReading: () => this.visits.resume(),
      deleted: () => this.showDeleted(),
    });
  }

  async start(): Promise<void> {
    if (!aliasShape.test(this.code)) return this.showMissing();
    document.title = `Link ${this.code} · linkgeo`;
    this.ui.linkHeading.textContent = `Short link ${this.code}`;
    let record: PublicRecord;
    try {
      // An outage is waited out, said as it is; the page loads by itself once the service answers.
      const asked = { params: { short_url: this.code }, query: domainQuery(this.address) };
      const read = () => Promise.all([call("GET /shorten/{short_url}", asked), call("GET /shorten/{short_url}/stats", asked)]);
      [record, this.stats] = await untilAnswered(read, { waiting: (seconds) => this.say(outageWords(seconds), "plain") });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return this.showMissing();
      return this.say(`The link could not be loaded. ${plainWords(error)}`, "error");
    }
    this.changed(record);
    this.qr.show(record.link, record.short_url);
    show(this.ui.linkStatus, false);
    show(this.ui.linkView, true);
    this.access = await linkCredential(this.code, this.domain);
    await this.readWithCredential();
    if (this.access) await this.manage();
    else await this.showOpenReport();
  }

  private say(message: string, kind: "error" | "plain"): void {
    this.ui.linkStatus.textContent = message;
    this.ui.linkStatus.classList.toggle("error", kind === "error");
    show(this.ui.linkStatus, true);
  }

  /** The card and the destination field, as the record and the count last read have them. */
  private showLink(): void {
    if (!this.record || !this.stats) return;
    this.summary.show(this.record, this.stats);
    this.destination.fill(this.record.long_url);
  }

  private changed(record: PublicRecord): void {
    this.record = record;
    this.showLink();
  }

  private destinationSaved(record: PublicRecord): void {
    this.changed(record);
    const saved = savedLink(this.address);
    if (saved && record.long_url !== null) saveLink({ ...saved, long_url: record.long_url });
  }

  /** The options, and a protected link's addresses, are shown only to a credential: read again with it. */
  private async readWithCredential(): Promise<void> {
    if (!this.access || !this.record || (readsOptions(this.record) && this.record.long_url !== null)) return;
    try {
      this.changed(
        await call("GET /shorten/{short_url}", {
          params: { short_url: this.code },
          query: domainQuery(this.address),
          credential: this.access.credential,
        }),
      );
    } catch {
      // The visits' call says what is wrong with the credential; the public record stays.
    }
  }

  // Without a credential: the token form; with one: visits, change, delete.

  /** Without a credential: the token form, and the visits too when the link's report is open to anyone (public_stats). */
  private async showOpenReport(): Promise<void> {
    this.askForToken(null);
    if (this.record?.public_stats !== true) return;
    show(this.ui.visitsRoot, true);
    await this.visits.load();
  }

  private askForToken(problem: string | null): void {
    this.access = null;
    this.visits.stop();
    show(this.ui.visitsRoot, false);
    show(this.ui.manageRoot, false);
    this.summary.showAccess("");
    this.tokenForm.ask(problem);
  }

  /** Why the credential the page had no longer reads the visits. */
  private refusal(): string {
    const access = this.access;
    if (access?.source === "person")
      return `Signed in as ${access.username}, you may not read this link: it is in none of your workspaces. Use its manage token, if it has one.`;
    return access?.source === "token"
      ? "The manage token saved in this browser no longer manages this link."
      : "Your admin session has ended: sign in again, or use the link's manage token.";
  }

  private async granted(credential: Credential, token: string): Promise<void> {
    this.access = { credential, source: "token" };
    await this.readWithCredential();
    const record = this.record;
    if (record && record.long_url !== null)
      saveLink({
        short_url: record.short_url,
        manage_token: token,
        link: record.link,
        long_url: record.long_url,
        created_at: record.created_at,
        // On the default domain's page, the default domain's link; else whichever its record is (saved-domain.ts).
        ...(this.domain === undefined ? {} : await savedDomainOf(record)),
      });
    await this.manage();
    this.visits.focus();
  }

  private async manage(): Promise<void> {
    if (!this.access) return;
    const access = this.access;
    this.summary.showAccess(
      access.source === "token"
        ? "You manage this link with its manage token, saved in this browser."
        : access.source === "person"
          ? `You are signed in as ${access.username}, a member of the link's workspace.`
          : `You are signed in as the admin ${access.username}.`,
    );
    show(this.ui.visitsRoot, true);
    show(this.ui.manageRoot, true);
    if (this.record && readsOptions(this.record)) this.options.fill(this.record);
    await this.visits.load();
  }

  private showMissing(): void {
    this.visits.stop();
    document.title = "Link not found · linkgeo";
    this.ui.linkHeading.textContent = "This short link does not exist";
    show(this.ui.linkStatus, false);
    show(this.ui.linkView, false);
    show(this.ui.linkMissing, true);
  }

  private showDeleted(): void {
    forgetLink(this.address);
    this.visits.stop();
    document.title = "Link deleted · linkgeo";
    this.ui.linkHeading.textContent = `Link ${this.code} deleted`;
    show(this.ui.linkView, false);
    show(this.ui.linkDeleted, true);
    this.ui.linkHeading.focus();
  }
}
