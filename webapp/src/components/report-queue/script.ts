/**
 * The admin page's reports queue (view.ts, docs/abuse.md): the open
 * reports, newest first, each with its link (where it leads, its state and
 * visits) and who made it, and one button per action. An action is done
 * at once; the queue is then read again, so the link's other reports,
 * resolved with it, leave the table.
 */
import { actOnReport, openReports, type QueuedReport, type ReportAction } from "../../client/lib/admin-reports.ts";
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { fill, h, show } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { formatCount, formatDateTime } from "../../client/lib/format.ts";
import { stateNames } from "../../client/lib/link-options.ts";
import type { Outage } from "../outage-notice/script.ts";
import { reportQueueParts } from "./parts.ts";

export interface ReportQueueDeps {
  /** The signed-in admin's credential for changes (the cookie goes by itself; this adds the CSRF token). */
  credential(): Credential;
  /** Handles what is not the panel's business (the session ended); true when it did. */
  handled(error: unknown): boolean;
  outage: Outage;
}

type Parts = FoundParts<typeof reportQueueParts.spec>;

/** Each action's button, and what the status line says once it is done. */
const actionWords: Record<ReportAction, [button: string, done: string]> = {
  quarantine: ["Quarantine", "quarantined"],
  disable: ["Disable", "disabled"],
  ban_domain: ["Ban domain", "quarantined, its domain banned"],
  revoke_key: ["Revoke key", "kept; the key that made it is revoked"],
  dismiss: ["Dismiss", "left as it is; the report is dismissed"],
};

const makers: Record<string, string> = { "api-key": "key ", person: "", admin: "admin " };

export function mount(root: HTMLElement, deps: ReportQueueDeps): ReportQueue {
  return new ReportQueue(findParts(root, reportQueueParts), deps);
}

export class ReportQueue {
  private loading: AbortController | null = null;

  constructor(
    private readonly ui: Parts,
    private readonly deps: ReportQueueDeps,
  ) {}

  /** Reads the open reports (signed in). */
  async load(): Promise<void> {
    this.loading?.abort();
    const controller = new AbortController();
    this.loading = controller;
    this.ui.table.setAttribute("aria-busy", "true");
    try {
      const reports = await openReports(controller.signal);
      this.deps.outage.answered("reports");
      this.ui.error.textContent = "";
      fill(
        this.ui.body,
        reports.map((report) => this.row(report)),
      );
      show(this.ui.table.parentElement!, reports.length > 0);
      show(this.ui.empty, reports.length === 0);
    } catch (error) {
      if (controller.signal.aborted || this.deps.handled(error) || this.deps.outage.retryLater("reports", error, () => this.load())) return;
      this.ui.error.textContent = error instanceof ApiError ? `The reports could not be loaded: ${error.message}` : "The reports could not be loaded.";
    } finally {
      if (this.loading === controller) this.ui.table.removeAttribute("aria-busy");
    }
  }

  /** Forgets everything shown (signed out). */
  clear(): void {
    this.loading?.abort();
    fill(this.ui.body);
    this.ui.status.textContent = "";
    this.ui.error.textContent = "";
  }

  private row(report: QueuedReport): HTMLTableRowElement {
    const link = report.link;
    const name = link ? link.link.replace(/^https?:\/\//, "").replace(/\/$/, "") : `report ${report.id}`;
    const actions = h("td", { class: "actions report-actions" });
    for (const action of Object.keys(actionWords) as ReportAction[]) {
      if (action === "revoke_key" && report.creator.kind !== "api-key") continue;
      const button = h(
        "button",
        { type: "button", class: `small ${action === "dismiss" ? "secondary" : "danger"}` },
        actionWords[action][0],
        h("span", { class: "visually-hidden" }, ` ${name}`),
      );
      button.addEventListener("click", () => void this.act(report, action, name, actions));
      actions.append(button);
    }
    return h(
      "tr",
      { "data-report-id": String(report.id) },
      h("td", { "data-label": "Reported" }, formatDateTime(report.created_at)),
      h("td", { "data-label": "Why" }, h("strong", {}, report.reason), report.note ? h("p", { class: "report-note" }, report.note) : ""),
      h(
        "td",
        { class: "code", "data-label": "Link" },
        h("span", {}, name),
        link ? h("p", { class: "muted" }, `→ ${link.long_url ?? "(hidden)"}`) : "",
        link?.state ? h("span", { class: `badge ${link.state}` }, stateNames[link.state]) : "",
        link ? h("span", { class: "muted" }, ` ${formatCount(link.access_count)} visits`) : "",
      ),
      h(
        "td",
        { class: "code", "data-label": "Made by" },
        report.creator.kind === "anonymous" ? "anyone" : `${makers[report.creator.kind] ?? ""}${report.creator.id}`,
      ),
      actions,
    );
  }

  private async act(report: QueuedReport, action: ReportAction, name: string, actions: HTMLElement): Promise<void> {
    for (const button of actions.querySelectorAll("button")) button.disabled = true;
    this.ui.status.textContent = "";
    this.ui.error.textContent = "";
    try {
      await actOnReport(report.id, action, this.deps.credential());
      this.ui.status.textContent = `${name}: ${actionWords[action][1]}.`;
      this.ui.title.focus();
      await this.load();
    } catch (error) {
      for (const button of actions.querySelectorAll("button")) button.disabled = false;
      if (this.deps.handled(error)) return;
      this.ui.error.textContent = error instanceof ApiError ? `${name}: ${error.message}` : `${name}: the action could not be done.`;
    }
  }
}
