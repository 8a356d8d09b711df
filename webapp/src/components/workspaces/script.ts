/**
 * The workspaces page (view.ts), for a person (docs/people.md). Signed
 * out: the sign-in form (sign-in/signed-in-page.ts). Signed in: the
 * switcher of their workspaces, and for the one chosen its links,
 * members, keys and, for its owners, its audit log; what a role may not
 * do is not offered (the API refuses it all the same). An admin signed in
 * with the same browser is told to sign out of the admin page first: the
 * API takes one sign-in a request.
 */
import { adminSession } from "../../client/lib/admin-session.ts";
import { show } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { personSession, type PersonSession } from "../../client/lib/person-session.ts";
import { workspaceKeyCalls, type Workspace } from "../../client/lib/workspace-calls.ts";
import { mount as mountApiKeys, type ApiKeys } from "../api-keys/script.ts";
import { mount as mountAudit, type AuditLog } from "../audit-log/script.ts";
import { mount as mountOutage } from "../outage-notice/script.ts";
import { SignedInPage } from "../sign-in/signed-in-page.ts";
import { mount as mountLinks, type WorkspaceLinks } from "../workspace-links/script.ts";
import { mount as mountMembers, type WorkspaceMembers } from "../workspace-members/script.ts";
import { mount as mountSwitcher, type WorkspaceSwitcher } from "../workspace-switcher/script.ts";
import { workspacesParts } from "./parts.ts";

export function mount(root: HTMLElement): void {
  const ui = findParts(root, workspacesParts);
  void start(ui);
}

/**
 * An admin signed in with this browser: a person's sign-in beside it would
 * make two, which the API refuses on every request, so the page says so
 * and offers no form. Anyone else: the page.
 */
async function start(ui: FoundParts<typeof workspacesParts.spec>): Promise<void> {
  const admin = await adminSession.current().catch(() => null);
  if (!admin) return new WorkspacesPage(ui).signIn.start();
  show(ui.checking, false);
  ui.failure.textContent = `You are signed in as the admin ${admin.username} in this browser: sign out on the Admin page first, then come back to sign in as a person.`;
}

class WorkspacesPage {
  readonly signIn: SignedInPage<PersonSession>;
  private readonly switcher: WorkspaceSwitcher;
  private readonly links: WorkspaceLinks;
  private readonly members: WorkspaceMembers;
  private readonly keys: ApiKeys;
  private readonly audit: AuditLog;
  /** The workspace chosen, whose keys the keys panel shows. */
  private workspace: Workspace | null = null;

  constructor(private readonly ui: FoundParts<typeof workspacesParts.spec>) {
    const outage = mountOutage(ui.outage);
    this.signIn = new SignedInPage(
      { ...ui, signedInView: ui.personView, username: ui.personName },
      {
        sessions: personSession,
        outage,
        signedIn: () => void this.switcher.load(),
        signedOut: () => this.clear(),
      },
    );
    const deps = { credential: () => this.signIn.credential(), handled: (error: unknown) => this.signIn.handled(error), outage };
    this.switcher = mountSwitcher(ui.switcher, { ...deps, chosen: (workspace) => this.choose(workspace) });
    this.links = mountLinks(ui.links, deps);
    this.members = mountMembers(ui.members, {
      ...deps,
      username: () => this.signIn.session?.username ?? "",
      ownMembershipChanged: (said) => void this.switcher.load(undefined, said),
    });
    this.keys = mountApiKeys(ui.apiKeys, { ...deps, calls: () => workspaceKeyCalls(this.chosen().id) });
    this.audit = mountAudit(ui.audit, deps);
  }

  /** The chosen workspace's panels, each with what the person's role there may do. */
  private choose(workspace: Workspace | null): void {
    this.clearWorkspace();
    this.workspace = workspace;
    show(this.ui.current, workspace !== null);
    if (!workspace) return;
    this.links.show(workspace);
    this.members.show(workspace);
    this.keys.mayCreate(workspace.role !== "viewer");
    void this.keys.load();
    show(this.ui.audit, workspace.role === "owner");
    if (workspace.role === "owner") this.audit.show(workspace.id);
  }

  /** The workspace chosen; a panel asking with none chosen (a retry left over from before) is refused here, never sent. */
  private chosen(): Workspace {
    if (!this.workspace) throw new Error("no workspace is chosen");
    return this.workspace;
  }

  private clear(): void {
    this.clearWorkspace();
    this.workspace = null;
    show(this.ui.current, false);
    this.switcher.clear();
  }

  private clearWorkspace(): void {
    this.links.clear();
    this.members.clear();
    this.keys.clear();
    this.audit.clear();
  }
}
