import { Forbidden, InvalidRequest, Unauthorized } from "@linkgeo/shared";
import type { Credential } from "../auth/credential.ts";
import { noControlCharacters } from "../http/plain-text.ts";
import { mayDo } from "../auth/scopes.ts";
import type { MemberWorkspace, Workspace, WorkspaceMember, WorkspaceRole } from "./workspace.ts";
import type { WorkspaceStore } from "./workspace-store.ts";
import { LastOwner, MemberNotFound, WorkspaceHasHeldLinks, WorkspaceHasLinks, WorkspaceLimit, WorkspaceNotFound } from "./people-errors.ts";
import { workspaceRoles } from "./workspace.ts";

export interface WorkspacesDeps {
  store: WorkspaceStore;
  clock: () => Date;
  /** A deleted workspace's links go with it, each as one link is deleted (LinkService). */
  links: {
    hasLinksIn(workspaceId: number): Promise<boolean>;
    hasHeldLinksIn(workspaceId: number): Promise<boolean>;
    deleteAllIn(workspaceId: number): Promise<number>;
  };
}

const plainText = new RegExp(noControlCharacters);
// Characters that show nothing or turn the text around: a name could pass for another on screen.
const invisibleOrTurning = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

/** How many workspaces a person may be in: a bound on what one sign-in can make, and on a person's list. */
export const workspacesPerPersonMax = 100;

/** The longest name of a workspace, in characters. */
export const workspaceNameMaxLength = 100;

/** A workspace as its reader sees it: a member with their role; an admin, above every workspace, with none. */
export type SeenWorkspace = Workspace & { role: WorkspaceRole | null };

/**
 * The rules of workspaces (docs/people.md): a person makes one and is its
 * owner; a person lists the ones they are a member of, an admin (or a key
 * with the admin scope) every one.
 */
export class Workspaces {
  constructor(private readonly deps: WorkspacesDeps) {}

  /** A new workspace of which the signed-in person is the owner; 403 for anyone else, 400 for a bad name. */
  async create(input: { name: unknown }, credential: Credential): Promise<MemberWorkspace> {
    if (credential.kind !== "person") throw Forbidden.because("a workspace is made by a person: sign in as one (POST /login)");
    const name = workspaceName(input.name);
    // Checked before the write: writes at once may pass it by a few, never by many.
    if ((await this.deps.store.ofPerson(credential.id)).length >= workspacesPerPersonMax) {
      throw WorkspaceLimit.reached(workspacesPerPersonMax);
    }
    const made = await this.deps.store.create({ name, createdAt: this.deps.clock() }, credential.id);
    // The person was removed since the token was read.
    if (!made) throw Unauthorized.because("the sign-in token is unknown, ended or expired: sign in again (POST /login)");
    return made;
  }

  /** The members of workspace `id`, for its members and the admins; 404 for anyone else, as if it did not exist. */
  async members(id: number, credential: Credential): Promise<WorkspaceMember[]> {
    const seen = credential.kind === "person" ? (await this.deps.store.roleOf(id, credential.id)) !== null : mayDo(credential, "admin");
    if (!seen || !(await this.deps.store.find(id))) throw WorkspaceNotFound.withId(id);
    return this.deps.store.members(id);
  }

  /**
   * Changes a member's role (`role` given; anything but a role is a 400) or removes them (`role` null):
   * the workspace's owners only. A workspace the caller is no member of is a
   * 404, as is a person who is no member of it; the last owner stays (409).
   * The member as now, or as they were before their removal.
   */
  async changeMember(id: number, personId: number, role: unknown, credential: Credential): Promise<WorkspaceMember> {
    if (credential.kind !== "person") throw Forbidden.because("members are changed by the workspace's owners, signed in (POST /login)");
    const callerRole = await this.deps.store.roleOf(id, credential.id);
    if (callerRole === null) throw WorkspaceNotFound.withId(id);
    if (callerRole !== "owner") throw Forbidden.because("only the workspace's owners change its members");
    if (role !== null && (typeof role !== "string" || !(workspaceRoles as readonly string[]).includes(role))) {
      throw InvalidRequest.because(`role must be one of ${workspaceRoles.join(", ")}`);
    }
    const before = role === null ? (await this.deps.store.members(id)).find((member) => member.personId === personId) : undefined;
    const changed = await this.deps.store.changeMember(id, personId, role as WorkspaceRole | null);
    if (changed === "not member") throw MemberNotFound.withId(personId);
    if (changed === "last owner") throw LastOwner.stays();
    // Removed: as they were (a removal raced by another leaves the id to name them).
    return changed ?? before ?? { personId, username: `#${personId}`, role: "viewer", joinedAt: new Date(0) };
  }

  /**
   * Deletes a workspace (its owners, or an admin): its members, invites,
   * keys, grants and audit log go with it. One with links is refused unless
   * `links` is `delete`: its links are then deleted first, as each one alone
   * would be, and again should another be made meanwhile. The workspace as
   * it was, and how many links went.
   */
  async delete(id: number, links: "refuse" | "delete", credential: Credential): Promise<{ workspace: Workspace; links: number }> {
    if (credential.kind === "person") {
      const role = await this.deps.store.roleOf(id, credential.id);
      if (role === null) throw WorkspaceNotFound.withId(id);
      if (role !== "owner") throw Forbidden.because("only the workspace's owners delete it");
    } else if (!mayDo(credential, "admin")) throw WorkspaceNotFound.withId(id);
    const workspace = await this.deps.store.find(id);
    if (!workspace) throw WorkspaceNotFound.withId(id);
    if (links === "refuse" && (await this.deps.links.hasLinksIn(id))) throw WorkspaceHasLinks.refused();
    // A held link is the admins' to delete (LinkService.delete): an owner may not free its short URL this way either.
    if (links === "delete" && !mayDo(credential, "admin") && (await this.deps.links.hasHeldLinksIn(id))) throw WorkspaceHasHeldLinks.refused();
    let deleted = 0;
    for (let attempt = 0; attempt < 3; attempt++) {
      if (links === "delete") deleted += await this.deps.links.deleteAllIn(id);
      const gone = await this.deps.store.delete(id);
      if (gone === false) throw WorkspaceNotFound.withId(id);
      if (gone === true) return { workspace, links: deleted };
      if (links === "refuse") break;
    }
    throw WorkspaceHasLinks.refused();
  }

  /** The caller's workspaces: a person's, with their role; every one for an admin; 403 for anyone else. */
  /**
   * A person's workspaces, all of them (`page` is the admins'); for an
   * admin, a page of every workspace: up to `page.limit` above `page.after`.
   */
  async list(credential: Credential, page: { after: number; limit: number }): Promise<SeenWorkspace[]> {
    if (credential.kind === "person") return this.deps.store.ofPerson(credential.id);
    if (mayDo(credential, "admin")) return (await this.deps.store.page(page.after, page.limit)).map((workspace) => ({ ...workspace, role: null }));
    throw Forbidden.because("workspaces are listed for a person signed in (POST /login) or an admin");
  }
}

/** A workspace's name: 1 to 100 characters once trimmed, no control characters. */
function workspaceName(raw: unknown): string {
  if (typeof raw !== "string") throw InvalidRequest.because("name must be a string");
  const name = raw.trim();
  if (name.length === 0) throw InvalidRequest.because("name must not be empty");
  if ([...name].length > workspaceNameMaxLength) throw InvalidRequest.because(`name must be at most ${workspaceNameMaxLength} characters`);
  if (!plainText.test(name) || invisibleOrTurning.test(name)) throw InvalidRequest.because("name must not contain control, invisible or direction characters");
  return name;
}
