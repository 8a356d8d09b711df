import { Forbidden, type ApiKeyView } from "@linkgeo/shared";
import { ApiKeyNotFound, type ApiKeys } from "../auth/api-keys.ts";
import type { Credential } from "../auth/credential.ts";
import { mayDo } from "../auth/scopes.ts";
import { WorkspaceNotFound } from "./people-errors.ts";
import type { WorkspaceRole } from "./workspace.ts";

export interface WorkspaceKeysDeps {
  keys: ApiKeys;
  /** Whether a workspace of this id exists (for the admins, who see every one). */
  workspaceExists: (workspaceId: number) => Promise<boolean>;
}

/**
 * A workspace's API keys (docs/people.md): its owners and editors make
 * them, each never beyond the maker's role, and act on the workspace's
 * links only. An owner lists and revokes every key of the workspace,
 * anyone else their own (a viewer makes none, but one demoted keeps the
 * keys they made, asleep). The admins see and revoke every one. A
 * workspace the caller is no member of is a 404.
 */
export class WorkspaceKeys {
  constructor(private readonly deps: WorkspaceKeysDeps) {}

  async make(workspaceId: number, input: { name: unknown; scopes: unknown; expires_at?: unknown }, credential: Credential) {
    if (credential.kind !== "person") throw Forbidden.because("a workspace's key is made by its owners and editors, signed in (POST /login)");
    const role = this.roleIn(workspaceId, credential);
    if (role === "viewer") throw Forbidden.because("a viewer makes no keys: an owner or an editor does");
    return this.deps.keys.create(input, { workspaceId, personId: credential.id, role });
  }

  /** The keys the caller may manage: an owner's or an admin's every one, an editor's their own. */
  async list(workspaceId: number, credential: Credential): Promise<ApiKeyView[]> {
    const madeBy = await this.managedBy(workspaceId, credential);
    const keys = await this.deps.keys.list(workspaceId);
    return keys.filter(({ key }) => madeBy === "all" || key.madeBy === madeBy).map(({ view }) => view);
  }

  /** Revokes a key the caller may manage; any other is a 404, as if it did not exist. */
  async revoke(workspaceId: number, keyId: string, credential: Credential): Promise<void> {
    const madeBy = await this.managedBy(workspaceId, credential);
    const keys = await this.deps.keys.list(workspaceId);
    if (!keys.some(({ key }) => key.id === keyId && (madeBy === "all" || key.madeBy === madeBy))) throw ApiKeyNotFound.withId(keyId);
    await this.deps.keys.revoke(keyId);
  }

  /** The workspace's keys went with it, or a member's with their membership: this replica stops trusting them at once. */
  forgotten(workspaceId: number, madeBy?: number): void {
    this.deps.keys.forget((key) => key.workspaceId === workspaceId && (madeBy === undefined || key.madeBy === madeBy));
  }

  /** Whose keys of the workspace the caller manages: every one ("all"), or a person's own. */
  private async managedBy(workspaceId: number, credential: Credential): Promise<"all" | number> {
    if (credential.kind !== "person") {
      if (!mayDo(credential, "admin") || !(await this.deps.workspaceExists(workspaceId))) throw WorkspaceNotFound.withId(workspaceId);
      return "all";
    }
    // A viewer made none, unless an editor demoted since: those keys sleep, and their maker may still see and revoke them.
    return this.roleIn(workspaceId, credential) === "owner" ? "all" : credential.id;
  }

  private roleIn(workspaceId: number, person: Extract<Credential, { kind: "person" }>): WorkspaceRole {
    const role = person.roles.get(workspaceId);
    if (role === undefined) throw WorkspaceNotFound.withId(workspaceId);
    return role;
  }
}
