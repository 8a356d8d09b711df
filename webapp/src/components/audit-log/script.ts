/**
 * A workspace's audit log (view.ts): a page of its newest events, then
 * the older ones appended by "Older events" (the API's `next`), and a link
 * to the whole log as CSV (a GET: the sign-in cookie goes by itself).
 * Owners only: the page hides the panel for other roles.
 */
import { ApiError } from "../../client/lib/api.ts";
import { h, show } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { formatDateTime } from "../../client/lib/format.ts";
import { type AuditEvent, auditFileOf, auditOf } from "../../client/lib/workspace-calls.ts";
import type { Outage } from "../outage-notice/script.ts";
import { auditLogParts } from "./parts.ts";

export interface AuditLogDeps {
  handled(error: unknown): boolean;
  outage: Outage;
}

type Parts = FoundParts<typeof auditLogParts.spec>;

/** The actor as the log names it: a person or an admin by username, a key by its id. */
const actorKinds: Record<string, string> = { person: "", admin: "admin ", "api-key": "key " };

export function mount(root: HTMLElement, deps: AuditLogDeps): AuditLog {
  return new AuditLog(findParts(root, auditLogParts), deps);
}

export class AuditLog {
  private workspace: number | null = null;
  /** The id the shown events end on, for the page of older ones; undefined at the end. */
  private before: number | undefined;
  private loading: AbortController | null = null;

  constructor(
    private readonly ui: Parts,
    private readonly deps: AuditLogDeps,
  ) {
    ui.older.addEventListener("click", () => void this.load(false));
  }

  show(workspace: number): void {
    this.workspace = workspace;
    this.ui.fileLink.href = auditFileOf(workspace);
    void this.load(true);
  }

  clear(): void {
    this.loading?.abort();
    this.workspace = null;
    this.ui.body.replaceChildren();
    this.ui.error.textContent = "";
  }

  private async load(first: boolean): Promise<void> {
    const workspace = this.workspace;
    if (workspace === null) return;
    this.loading?.abort();
    const controller = new AbortController();
    this.loading = controller;
    this.ui.table.setAttribute("aria-busy", "true");
    try {
      const page = await auditOf(workspace, first ? undefined : this.before, controller.signal);
      this.deps.outage.answered("audit");
      this.ui.error.textContent = "";
      const rows = page.results.map(eventRow);
      if (first) this.ui.body.replaceChildren(...rows);
      else this.ui.body.append(...rows);
      this.before = page.results.at(-1)?.id;
      const none = this.ui.body.childElementCount === 0;
      show(this.ui.table.parentElement!, !none);
      show(this.ui.empty, none);
      show(this.ui.older, page.next !== null);
    } catch (error) {
      if (controller.signal.aborted || this.deps.handled(error) || this.deps.outage.retryLater("audit", error, () => this.load(first))) return;
      this.ui.error.textContent = error instanceof ApiError ? `The audit log could not be loaded: ${error.message}` : "The audit log could not be loaded.";
    } finally {
      if (this.loading === controller) this.ui.table.removeAttribute("aria-busy");
    }
  }
}

function eventRow(event: AuditEvent): HTMLTableRowElement {
  return h(
    "tr",
    {},
    h("td", { "data-label": "When" }, formatDateTime(event.at)),
    h("td", { class: "code", "data-label": "Who" }, `${actorKinds[event.actor.kind] ?? `${event.actor.kind} `}${event.actor.id}`),
    h("td", { "data-label": "What" }, h("code", {}, event.action)),
    h("td", { class: "code", "data-label": "To what" }, event.target),
  );
}
