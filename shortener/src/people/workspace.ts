/**
 * The roles of a workspace's members (docs/people.md): an owner runs it
 * (members, keys, its domains, deleting it), an editor works with its
 * links, a viewer reads them and their visits.
 */
export const workspaceRoles = ["owner", "editor", "viewer"] as const;
export type WorkspaceRole = (typeof workspaceRoles)[number];

/** Where people work together. */
export interface Workspace {
  id: number;
  name: string;
  createdAt: Date;
}

/** A workspace as one of its members sees it: with their role. */
export interface MemberWorkspace extends Workspace {
  role: WorkspaceRole;
}
