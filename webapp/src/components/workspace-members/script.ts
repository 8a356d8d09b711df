/**
 * The chosen workspace's members (view.ts). Everyone in it sees who is
 * there with what role; its owners change a role in the member's row (the
 * API keeps the last owner: its refusal is said in the row), remove a
 * member after a second question, and make invite links, each shown once
 * as the page's own address `/app/invite#<token>`: the token rides in the
 * fragment, which browsers never send, so no server log keeps it.
 */
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { copyButton } from "../../client/lib/copy-text.ts";
import { fill, h, show } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { formatDateTime } from "../../client/lib/format.ts";
import { changeRole, invite, membersOf, type Member, removeMember, type Role, roles, type Workspace } from "../../client/lib/workspace-calls.ts";
import { focusCancel, mount as mountQuestion } from "../confirm-question/script.ts";
import type { Outage } from "../outage-notice/script.ts";
import { workspaceMembersParts } from "./parts.ts";

export interface WorkspaceMembersDeps {
  credential(): Credential;
  handled(error: unknown): boolean;
  outage: Outage;
  /** The username signed in: their own row says so. */
  username(): string;
  /** The person's own role changed, or they left: the page asks for their workspaces again, then says `said`. */
  ownMembershipChanged(said: string): void;
}

type Parts = FoundParts<typeof workspaceMembersParts.spec>;

const roleNames: Record<Role, string> = { owner: "Owner", editor: "Editor", viewer: "Viewer" };

export function mount(root: HTMLElement, deps: WorkspaceMembersDeps): WorkspaceMembers {
  return new WorkspaceMembers(findParts(root, workspaceMembersParts), deps);
}

export class WorkspaceMembers {
  private workspace: Workspace | null = null;
  private loading: AbortController | null = null;

  constructor(
    private readonly ui: Parts,
    private readonly deps: WorkspaceMembersDeps,
  ) {
    copyButton(ui.inviteCopy, ui.inviteLink, ui.inviteCopyStatus);
    ui.inviteDone.addEventListener("click", () => {
      this.hideInvite();
      ui.inviteRole.focus();
    });
    ui.inviteForm.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.invite();
    });
  }

  show(workspace: Workspace): void {
    this.workspace = workspace;
    this.hideInvite();
    this.ui.status.textContent = "";
    this.ui.inviteError.textContent = "";
    show(this.ui.inviteForm, this.owns());
    void this.load();
  }

  clear(): void {
    this.loading?.abort();
    this.workspace = null;
    this.hideInvite();
    fill(this.ui.body);
    this.ui.status.textContent = "";
    this.ui.error.textContent = "";
  }

  private owns(): boolean {
    return this.workspace?.role === "owner";
  }

  private async load(): Promise<void> {
    const workspace = this.workspace;
    if (!workspace) return;
    this.loading?.abort();
    const controller = new AbortController();
    this.loading = controller;
    try {
      const members = await membersOf(workspace.id, controller.signal);
      this.deps.outage.answered("members");
      this.ui.error.textContent = "";
      fill(
        this.ui.body,
        members.map((member) => this.row(member)),
      );
    } catch (error) {
      if (controller.signal.aborted || this.deps.handled(error) || this.deps.outage.retryLater("members", error, () => this.load())) return;
      this.ui.error.textContent = error instanceof ApiError ? `The members could not be loaded: ${error.message}` : "The members could not be loaded.";
    }
  }

  private row(member: Member): HTMLTableRowElement {
    const own = member.username === this.deps.username();
    const actions = h("td", { class: "actions" });
    let role: HTMLElement = h("span", {}, roleNames[member.role]);
    if (this.owns()) {
      // A role changes on Save, never on the select's own change: a keyboard stepping through the choices would change it at each.
      const select = h(
        "select",
        { "aria-label": `Role of ${member.username}` },
        roles.map((each) => h("option", { value: each }, roleNames[each])),
      );
      select.value = member.role;
      const save = h(
        "button",
        { type: "button", class: "secondary small", disabled: true },
        "Save",
        h("span", { class: "visually-hidden" }, ` the role of ${member.username}`),
      );
      select.addEventListener("change", () => {
        save.disabled = select.value === member.role;
      });
      save.addEventListener("click", () => void this.changeRole(member, select, save));
      role = h("span", { class: "role-choice" }, select, save);
      const remove = h(
        "button",
        { type: "button", class: "secondary small delete" },
        own ? "Leave" : "Remove",
        h("span", { class: "visually-hidden" }, own ? ` ${this.workspace?.name ?? "the workspace"}` : ` ${member.username}`),
      );
      remove.addEventListener("click", () => this.askToRemove(member, own, actions, remove));
      fill(actions, remove);
    }
    return h(
      "tr",
      {},
      h("td", { class: "code", "data-label": "Username" }, member.username, own ? h("span", { class: "muted" }, " (you)") : null),
      h("td", { "data-label": "Role" }, role),
      h("td", { "data-label": "Joined" }, formatDateTime(member.joined_at)),
      actions,
    );
  }

  private async changeRole(member: Member, select: HTMLSelectElement, save: HTMLButtonElement): Promise<void> {
    const workspace = this.workspace;
    if (!workspace) return;
    const role = select.value as Role;
    this.ui.status.textContent = "";
    this.ui.error.textContent = "";
    select.disabled = save.disabled = true;
    try {
      await changeRole(workspace.id, member.id, role, this.deps.credential());
      if (this.workspace !== workspace) return;
      const said = `${member.username} is now ${roleNames[role].toLowerCase()} in ${workspace.name}.`;
      member.role = role;
      if (member.username === this.deps.username()) return this.deps.ownMembershipChanged(said);
      this.ui.status.textContent = said;
    } catch (error) {
      select.value = member.role;
      if (this.deps.handled(error) || this.workspace !== workspace) return;
      this.ui.error.textContent =
        error instanceof ApiError ? `The role of ${member.username} could not be changed: ${error.message}` : "The role could not be changed.";
    } finally {
      select.disabled = false;
      save.disabled = select.value === member.role;
    }
  }

  private askToRemove(member: Member, own: boolean, actions: HTMLElement, remove: HTMLButtonElement): void {
    const workspace = this.workspace;
    if (!workspace) return;
    const question = mountQuestion(this.ui.questionTemplate, {
      label: own ? "Leave the workspace?" : `Remove ${member.username}?`,
      text: own
        ? ["Leave ", h("strong", {}, workspace.name), "? Your keys of it stop working; an owner may invite you again."]
        : ["Remove ", h("strong", {}, member.username), "? Their keys of this workspace stop working within a second; their links stay."],
      yes: own ? "Yes, leave" : "Yes, remove",
      cancelled: () => {
        fill(actions, remove);
        remove.focus();
      },
      act: async () => {
        try {
          await removeMember(workspace.id, member.id, this.deps.credential());
        } catch (error) {
          if (!(error instanceof ApiError && error.status === 404)) {
            return this.deps.handled(error) ? null : error instanceof ApiError ? error.message : "The member could not be removed.";
          }
        }
        if (own) {
          this.deps.ownMembershipChanged(`You left ${workspace.name}.`);
          return null;
        }
        // The row goes at once; the list read again confirms it.
        actions.closest("tr")?.remove();
        this.ui.status.textContent = `${member.username} removed.`;
        this.ui.title.focus();
        void this.load();
        return null;
      },
    });
    fill(actions, question);
    focusCancel(question);
  }

  private async invite(): Promise<void> {
    const workspace = this.workspace;
    if (!workspace) return;
    const { ui } = this;
    ui.inviteError.textContent = "";
    ui.inviteCreate.disabled = true;
    try {
      const made = await invite(workspace.id, ui.inviteRole.value as Role, this.deps.credential());
      // Another workspace was chosen meanwhile: this one's invite is not shown under it (it expires unused).
      if (this.workspace !== workspace) return;
      ui.inviteLink.value = `${location.origin}/app/invite#${made.token}`;
      ui.inviteExpires.textContent = formatDateTime(made.expires_at);
      ui.inviteCopyStatus.textContent = "";
      show(ui.invite, true);
      ui.inviteTitle.focus();
    } catch (error) {
      if (this.deps.handled(error)) return;
      ui.inviteError.textContent = error instanceof ApiError ? `The invite could not be made: ${error.message}` : "The invite could not be made.";
    } finally {
      ui.inviteCreate.disabled = false;
    }
  }

  private hideInvite(): void {
    this.ui.inviteLink.value = "";
    this.ui.inviteCopyStatus.textContent = "";
    show(this.ui.invite, false);
  }
}
