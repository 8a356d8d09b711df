import type { MemberWorkspace, Workspace } from "./workspace.ts";

/** Where workspaces and their members are kept. One implementation per engine; both pass the same contract suite. */
export interface WorkspaceStore {
  /** A new workspace with `ownerId` as its owner, in one transaction; null when that person does not exist (nothing stored). */
  create(workspace: { name: string; createdAt: Date }, ownerId: number): Promise<MemberWorkspace | null>;
  /** The workspaces `personId` is a member of, with their role, oldest first. */
  ofPerson(personId: number): Promise<MemberWorkspace[]>;
  /** Every workspace, oldest first: the admins'. */
  all(): Promise<Workspace[]>;
}
