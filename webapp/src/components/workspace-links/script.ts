/**
 * The chosen workspace's links (view.ts): owners and editors make one
 * (`POST /shorten/` naming the workspace), everyone searches and pages
 * through them (`GET /shorten/?workspace=`), each row leads to the link's
 * page, and owners and editors delete one after a second question. A
 * viewer sees the table alone.
 */
import { addressOf, deleteLink } from "../../client/lib/admin-links.ts";
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { fill, h, show } from "../../client/lib/dom.ts";
import { findParts, showFieldError, type FoundParts } from "../../client/lib/find-parts.ts";
import { formatCount, formatDateTime, plural } from "../../client/lib/format.ts";
import { linkPage } from "../../client/lib/link-address.ts";
import { destinationLink } from "../../client/lib/readable-destination.ts";
import { addressToSend } from "../../client/lib/web-address.ts";
import { linksFileOf, linksOf, makeLink, type Role, type Workspace, type WorkspaceLink } from "../../client/lib/workspace-calls.ts";
import { focusCancel, mount as mountQuestion } from "../confirm-question/script.ts";
import type { Outage } from "../outage-notice/script.ts";
import { workspaceLinksParts } from "./parts.ts";

export interface WorkspaceLinksDeps {
  credential(): Credential;
  handled(error: unknown): boolean;
  outage: Outage;
}

type Parts = FoundParts<typeof workspaceLinksParts.spec>;

/** The roles that make, change and delete a workspace's links (docs/people.md, Roles). */
const writers: readonly Role[] = ["owner", "editor"];

export function mount(root: HTMLElement, deps: WorkspaceLinksDeps): WorkspaceLinks {
  return new WorkspaceLinks(findParts(root, workspaceLinksParts), deps);
}

export class WorkspaceLinks {
  private workspace: Workspace | null = null;
  private page = 1;
  private q = "";
  private loading: AbortController | null = null;

  constructor(
    private readonly ui: Parts,
    private readonly deps: WorkspaceLinksDeps,
  ) {
    ui.createForm.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.create();
    });
    ui.searchForm.addEventListener("submit", (event) => {
      event.preventDefault();
      this.q = ui.search.value.trim();
      this.page = 1;
      void this.load();
    });
    ui.previous.addEventListener("click", () => void this.load(Math.max(1, this.page - 1)));
    ui.next.addEventListener("click", () => void this.load(this.page + 1));
  }

  /** The workspace's first page, with what its role may do. */
  show(workspace: Workspace): void {
    this.workspace = workspace;
    this.page = 1;
    this.q = "";
    this.ui.search.value = "";
    this.ui.status.textContent = "";
    this.ui.exportLink.href = linksFileOf(workspace.id);
    show(this.ui.createForm, this.writes());
    void this.load();
  }

  clear(): void {
    this.loading?.abort();
    this.workspace = null;
    this.ui.createForm.reset();
    fill(this.ui.body);
    this.ui.status.textContent = "";
    this.ui.error.textContent = "";
  }

  private writes(): boolean {
    return this.workspace?.role !== undefined && this.workspace.role !== null && writers.includes(this.workspace.role);
  }

  /** Shows page `page` once it has loaded (a page that fails to load leaves the one shown, and its number). */
  private async load(page = this.page): Promise<void> {
    const workspace = this.workspace;
    if (!workspace) return;
    this.loading?.abort();
    const controller = new AbortController();
    this.loading = controller;
    this.ui.table.setAttribute("aria-busy", "true");
    try {
      const list = await linksOf(workspace.id, page, this.q, controller.signal);
      this.page = page;
      this.deps.outage.answered("workspace-links");
      this.ui.error.textContent = "";
      fill(
        this.ui.body,
        list.results.map((link) => this.row(link)),
      );
      show(this.ui.table.parentElement!, list.results.length > 0);
      this.ui.empty.textContent = this.q ? "No links match." : "No links yet.";
      show(this.ui.empty, list.results.length === 0);
      const pages = Math.max(1, Math.ceil(list.count / 20));
      this.ui.pageInfo.textContent = `Page ${this.page} of ${list.count_is_estimate ? "about " : ""}${pages} · ${plural(list.count, "link")}`;
      this.ui.previous.disabled = this.page === 1;
      this.ui.next.disabled = list.next === null;
      show(this.ui.pager, list.count > 0);
    } catch (error) {
      if (controller.signal.aborted || this.deps.handled(error) || this.deps.outage.retryLater("workspace-links", error, () => this.load(page))) return;
      this.ui.error.textContent = error instanceof ApiError ? `The links could not be loaded: ${error.message}` : "The links could not be loaded.";
    } finally {
      if (this.loading === controller) this.ui.table.removeAttribute("aria-busy");
    }
  }

  private async create(): Promise<void> {
    const workspace = this.workspace;
    if (!workspace) return;
    const { ui } = this;
    showFieldError(ui.longUrl, null);
    showFieldError(ui.alias, null);
    ui.status.textContent = ui.error.textContent = "";
    const typed = ui.longUrl.value.trim();
    if (!typed) {
      showFieldError(ui.longUrl, "Enter the address to shorten.");
      ui.longUrl.focus();
      return;
    }
    const alias = ui.alias.value.trim();
    ui.create.disabled = true;
    try {
      const made = await makeLink(workspace.id, { long_url: addressToSend(typed), ...(alias ? { short_url: alias } : {}) }, this.deps.credential());
      // Another workspace was chosen meanwhile: the link is made in this one, said nowhere else.
      if (this.workspace !== workspace) return;
      ui.createForm.reset();
      ui.status.textContent = `Link ${made.link} made.`;
      // The new link first: no search left to hide it.
      this.q = ui.search.value = "";
      await this.load(1);
    } catch (error) {
      if (this.deps.handled(error) || this.workspace !== workspace) return;
      // A field's refusal is said on the field; anything else (a role taken away, the workspace gone, a limit) above the table.
      const field =
        !(error instanceof ApiError) || (error.status !== 400 && error.status !== 409)
          ? undefined
          : error.status === 409 || /^short_url\b/.test(error.message)
            ? ui.alias
            : ui.longUrl;
      if (!field) {
        ui.error.textContent = error instanceof ApiError ? `The link could not be made: ${error.message}` : "The link could not be made. Try again.";
        return;
      }
      showFieldError(field, (error as ApiError).message);
      field.focus();
    } finally {
      ui.create.disabled = false;
    }
  }

  private row(link: WorkspaceLink): HTMLTableRowElement {
    const address = addressOf(link);
    const actions = h("td", { class: "actions" });
    if (this.writes()) {
      const remove = h("button", { type: "button", class: "secondary small delete" }, "Delete", h("span", { class: "visually-hidden" }, ` ${link.short_url}`));
      remove.addEventListener("click", () => this.askToDelete(link, actions, remove));
      fill(actions, remove);
    }
    return h(
      "tr",
      {},
      h("td", { class: "code", "data-label": "Short link" }, h("a", { href: linkPage(address) }, link.short_url)),
      h(
        "td",
        { class: "destination", "data-label": "Destination" },
        link.title ? h("span", { class: "link-title" }, link.title, " ") : null,
        readable(link.long_url),
      ),
      h("td", { class: "number", "data-label": "Visits" }, formatCount(link.access_count)),
      h("td", { "data-label": "Created" }, formatDateTime(link.created_at)),
      actions,
    );
  }

  private askToDelete(link: WorkspaceLink, actions: HTMLElement, remove: HTMLButtonElement): void {
    const question = mountQuestion(this.ui.questionTemplate, {
      label: `Delete ${link.short_url}?`,
      text: ["Delete ", h("code", {}, link.short_url), "? Its visits go with it; this cannot be undone."],
      yes: "Yes, delete",
      cancelled: () => {
        fill(actions, remove);
        remove.focus();
      },
      act: async () => {
        try {
          await deleteLink(addressOf(link), this.deps.credential());
        } catch (error) {
          // Already gone (another member, another tab): what was asked for is true.
          if (!(error instanceof ApiError && error.status === 404)) {
            return this.deps.handled(error) ? null : error instanceof ApiError ? error.message : "The link could not be deleted.";
          }
        }
        this.ui.status.textContent = `Link ${link.short_url} deleted.`;
        this.ui.title.focus();
        void this.load();
        return null;
      },
    });
    fill(actions, question);
    focusCancel(question);
  }
}

/** A destination as the admin's table shows it (null: a protected link's, which a member reads, so hardly ever). */
function readable(longUrl: string | null): HTMLElement {
  return longUrl === null ? h("span", { class: "muted" }, "hidden") : destinationLink(longUrl);
}
