import type { WorkspaceRole } from "./roles.ts";
import type { ApiKeyScope } from "./api-key.ts";

/**
 * Who is asking: an admin (token or session), the holder of one link's
 * manage token, a program with an API key and its scopes (an admin's key,
 * over every link, or a workspace's, over its links only), or a person
 * signed in (docs/people.md), who may do what their role in each of their
 * workspaces allows there, read for this request: a session carries no
 * rights of its own.
 */
export type Credential =
  | { kind: "admin"; username: string }
  | { kind: "manage-token"; token: string }
  | { kind: "api-key"; id: string; scopes: readonly ApiKeyScope[]; workspaceId: number | null }
  | { kind: "person"; id: number; username: string; roles: ReadonlyMap<number, WorkspaceRole> };
