export { roleAllows, roleScopes, workspaceRoles, type WorkspaceRole } from "../auth/roles.ts";
import type { WorkspaceRole } from "../auth/roles.ts";

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

/** A member of a workspace, as its members see them. */
export interface WorkspaceMember {
  personId: number;
  username: string;
  role: WorkspaceRole;
  joinedAt: Date;
}

/** An invite as the store keeps it: the token itself is shown once, to the owner who made it. */
export interface WorkspaceInvite {
  /** SHA-256 (hex) of the token. */
  idHash: string;
  workspaceId: number;
  role: WorkspaceRole;
  createdAt: Date;
  expiresAt: Date;
  /** The owner who made it; null for an invite of before migration 0029/0031 (none is left: that migration withdrew them). */
  madeBy: number | null;
}
