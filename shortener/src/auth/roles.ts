import type { ApiKeyScope } from "./api-key.ts";

/**
 * The roles of a workspace's members (docs/people.md): an owner runs it
 * (members, keys, its domains, deleting it), an editor works with its
 * links, a viewer reads them and their visits.
 */
export const workspaceRoles = ["owner", "editor", "viewer"] as const;
export type WorkspaceRole = (typeof workspaceRoles)[number];

/**
 * What each role may do with its workspace's links, in the API keys' words:
 * the one owner of the rule for a member signed in and for a key they make,
 * which never carries more than its maker's role. An owner's further powers
 * (members, invites, every key of the workspace) are not a key's.
 */
export const roleScopes: Readonly<Record<WorkspaceRole, readonly ApiKeyScope[]>> = {
  owner: ["links:read", "links:write", "links:create", "visits:read"],
  editor: ["links:read", "links:write", "links:create", "visits:read"],
  viewer: ["links:read", "visits:read"],
};

/** Whether `role` may do what `scope` names with its workspace's links. */
export function roleAllows(role: WorkspaceRole, scope: ApiKeyScope): boolean {
  return roleScopes[role].includes(scope);
}
