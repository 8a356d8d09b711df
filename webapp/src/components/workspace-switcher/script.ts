/**
 * The workspace switcher (view.ts): the person's workspaces in a select,
 * their role in the chosen one, and the form that makes a workspace (its
 * maker is its owner, and it is chosen at once). The chosen one is in the
 * page's address (`?workspace=<id>`), so a reload or a shared address
 * opens it again.
 */
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { fill, h, show } from "../../client/lib/dom.ts";
import { findParts, showFieldError, type FoundParts } from "../../client/lib/find-parts.ts";
import { makeWorkspace, myWorkspaces, type Workspace } from "../../client/lib/workspace-calls.ts";
import type { Outage } from "../outage-notice/script.ts";
import { workspaceSwitcherParts } from "./parts.ts";

export interface WorkspaceSwitcherDeps {
  credential(): Credential;
  handled(error: unknown): boolean;
  outage: Outage;
  /** The workspace now chosen, or null when the person is in none. */
  chosen(workspace: Workspace | null): void;
}

type Parts = FoundParts<typeof workspaceSwitcherParts.spec>;

export function mount(root: HTMLElement, deps: WorkspaceSwitcherDeps): WorkspaceSwitcher {
  return new WorkspaceSwitcher(findParts(root, workspaceSwitcherParts), deps);
}

/** The workspace the page's address names, if any. */
function addressedWorkspace(): number | undefined {
  const id = Number(new URLSearchParams(location.search).get("workspace"));
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

export class WorkspaceSwitcher {
  private workspaces: Workspace[] = [];
  /** The latest load: an earlier one answering after it (a create, then a change of one's own role) is dropped. */
  private loading: AbortController | null = null;

  constructor(
    private readonly ui: Parts,
    private readonly deps: WorkspaceSwitcherDeps,
  ) {
    ui.select.addEventListener("change", () => this.choose(Number(ui.select.value)));
    ui.newForm.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.create();
    });
  }

  /**
   * Lists the person's workspaces and chooses the one the address names
   * (else the first); `id` chooses that one instead. `said`: what the
   * status line says once loaded (a change of one's own membership).
   */
  async load(id = addressedWorkspace(), said = ""): Promise<void> {
    this.loading?.abort();
    const controller = new AbortController();
    this.loading = controller;
    try {
      const workspaces = await myWorkspaces(controller.signal);
      if (controller.signal.aborted) return;
      this.workspaces = workspaces;
      this.deps.outage.answered("workspaces");
      this.ui.loadError.textContent = "";
    } catch (error) {
      if (controller.signal.aborted || this.deps.handled(error) || this.deps.outage.retryLater("workspaces", error, () => this.load(id, said))) return;
      this.ui.loadError.textContent =
        error instanceof ApiError ? `Your workspaces could not be loaded: ${error.message}` : "Your workspaces could not be loaded.";
      return;
    }
    fill(
      this.ui.select,
      this.workspaces.map((workspace) => h("option", { value: String(workspace.id) }, workspace.name)),
    );
    show(this.ui.choice, this.workspaces.length > 0);
    show(this.ui.none, this.workspaces.length === 0);
    this.choose(this.workspaces.some((workspace) => workspace.id === id) ? id! : (this.workspaces[0]?.id ?? 0));
    this.ui.status.textContent = said;
    if (said) (this.workspaces.length > 0 ? this.ui.select : this.ui.newName).focus();
  }

  clear(): void {
    this.loading?.abort();
    this.workspaces = [];
    fill(this.ui.select);
    show(this.ui.choice, false);
    show(this.ui.none, false);
    this.ui.status.textContent = "";
    this.ui.newForm.reset();
    showFieldError(this.ui.newName, null);
    this.ui.loadError.textContent = "";
  }

  private choose(id: number): void {
    const workspace = this.workspaces.find((each) => each.id === id) ?? null;
    const address = new URL(location.href);
    if (workspace) {
      this.ui.select.value = String(workspace.id);
      this.ui.role.textContent = workspace.role ?? "";
      address.searchParams.set("workspace", String(workspace.id));
    } else address.searchParams.delete("workspace");
    history.replaceState(null, "", address);
    this.ui.status.textContent = "";
    this.deps.chosen(workspace);
  }

  private async create(): Promise<void> {
    const { ui } = this;
    showFieldError(ui.newName, null);
    const name = ui.newName.value.trim();
    if (!name) {
      showFieldError(ui.newName, "Enter a name for the workspace.");
      ui.newName.focus();
      return;
    }
    ui.newCreate.disabled = true;
    try {
      const made = await makeWorkspace(name, this.deps.credential());
      ui.newForm.reset();
      await this.load(made.id);
      ui.select.focus();
    } catch (error) {
      if (this.deps.handled(error)) return;
      showFieldError(ui.newName, error instanceof ApiError ? error.message : "The workspace could not be made. Try again.");
      ui.newName.focus();
    } finally {
      ui.newCreate.disabled = false;
    }
  }
}
