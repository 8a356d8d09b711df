import type { NewPerson } from "./person.ts";
import type { MemberWorkspace, Workspace, WorkspaceInvite, WorkspaceMember, WorkspaceRole } from "./workspace.ts";

/** Where workspaces, their members and their invites are kept. One implementation per engine; both pass the same contract suite. */
export interface WorkspaceStore {
  /** A new workspace with `ownerId` as its owner, in one transaction; null when that person does not exist (nothing stored). */
  create(workspace: { name: string; createdAt: Date }, ownerId: number): Promise<MemberWorkspace | null>;
  /** The workspaces `personId` is a member of, with their role, oldest first. */
  ofPerson(personId: number): Promise<MemberWorkspace[]>;
  /** The admins' view, a page at a time: up to `limit` workspaces with an id above `after`, oldest first. */
  page(after: number, limit: number): Promise<Workspace[]>;
  /** The workspace of `id`, or null. */
  find(id: number): Promise<Workspace | null>;
  /** The role of `personId` in workspace `workspaceId`, or null when they are no member. */
  roleOf(workspaceId: number, personId: number): Promise<WorkspaceRole | null>;
  /** The members of a workspace with their usernames, in the order they joined (then by person). */
  members(workspaceId: number): Promise<WorkspaceMember[]>;
  /**
   * The live invite of `idHash`, or null: one not expired at `now` whose
   * maker is still an owner of its workspace (an owner removed or made an
   * editor or viewer takes back every invite they made).
   */
  findLiveInvite(idHash: string, now: Date): Promise<WorkspaceInvite | null>;
  /** Stores an invite; false when the workspace does not exist (nothing stored). */
  insertInvite(invite: WorkspaceInvite): Promise<boolean>;
  /** A workspace's live invites (as `findLiveInvite` finds them) with their makers' usernames, oldest first. */
  liveInvites(workspaceId: number, now: Date): Promise<Array<WorkspaceInvite & { madeByUsername: string }>>;
  /** Deletes the invite of workspace `workspaceId` whose hash starts with `idPrefix` (its id); false when there is none. */
  deleteInvite(workspaceId: number, idPrefix: string): Promise<boolean>;
  /**
   * Takes the live invite of `idHash` (as `findLiveInvite` finds it) and
   * makes the joiner a member with its role, in one transaction: a person
   * signed in (`personId`), or a new person made in the same transaction,
   * so that no account is made when the invite does not hold (used by
   * someone else meanwhile). "unknown": no such live invite (or the
   * workspace or person is gone); "member": the person is a member already
   * (the invite is kept); "username taken": the new person's username is
   * someone's (nothing stored).
   */
  accept(
    idHash: string,
    joiner: { personId: number } | { newPerson: NewPerson },
    now: Date,
  ): Promise<{ workspace: Workspace; role: WorkspaceRole; person: { id: number; username: string } } | "unknown" | "member" | "username taken">;
  /**
   * Gives member `personId` of workspace `workspaceId` the role `role`, or
   * removes them (`role` null) with the keys they made there, in one transaction that keeps the workspace
   * at least one owner: "last owner" when it would not, "not member" when
   * they are none; else the member as now (null once removed).
   */
  changeMember(workspaceId: number, personId: number, role: WorkspaceRole | null): Promise<WorkspaceMember | null | "not member" | "last owner">;
  /**
   * Deletes the workspace, with its members, invites, keys, grants and audit
   * log; "has links" (nothing deleted) while a link still belongs to it,
   * false when there is no such workspace.
   */
  delete(id: number): Promise<boolean | "has links">;
  /** Deletes every invite that expired at or before `now`; how many went. */
  deleteExpiredInvites(now: Date): Promise<number>;
}
