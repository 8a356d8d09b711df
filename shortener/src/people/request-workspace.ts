import { Forbidden, InvalidRequest, Unauthorized } from "@linkgeo/shared";
import type { Credential } from "../auth/credential.ts";
import { requireScope, requireScopeWith, seesWorkspace } from "../auth/scopes.ts";
import { WorkspaceNotFound } from "./people-errors.ts";
import type { ApiKeyScope } from "../auth/api-key.ts";
import { rowIdOf } from "../http/row-id.ts";

/** CREATE_ACCESS: who may make a link; `anyone` (the default, with no credential) or `members` (a credential is required). */
export const createAccesses = ["anyone", "members"] as const;
export type CreateAccess = (typeof createAccesses)[number];

/** What POST /shorten/'s `workspace` and a listing's ?workspace= may be: a workspace's id, as a number or a string of digits. */
export function parseWorkspaceField(raw: unknown): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  const id = typeof raw === "number" || typeof raw === "string" ? rowIdOf(String(raw)) : undefined;
  if (id === undefined) throw InvalidRequest.because("workspace must be a workspace's id (GET /workspaces)");
  return id;
}

/**
 * The workspace a new link goes into (docs/people.md), for its creator
 * (undefined: none, an anonymous link) and the `workspace` the request
 * names:
 * - no credential: none, and naming one is a 401;
 * - a member: the one named, which they may make links in (a workspace
 *   they are no member of is a 404; a viewer's a 403), or without a name
 *   their only workspace (none: 403; several: 400, name one);
 * - a workspace's key: its own (another named is a 404);
 * - an admin or an admin's key: none, or any that exists (404 otherwise).
 * Each needs the power to make links: `links:create` (or `links:write`).
 */
export async function creationWorkspace(
  creator: Credential | undefined,
  asked: number | undefined,
  exists: (workspaceId: number) => Promise<boolean>,
): Promise<number | null> {
  if (creator === undefined || creator.kind === "manage-token") {
    if (asked !== undefined)
      throw Unauthorized.because("a link is made in a workspace by its members: send a person's sign-in token or the workspace's API key");
    return null;
  }
  if (creator.kind === "person") {
    const workspaceId = asked ?? onlyWorkspaceOf(creator.roles);
    if (!creator.roles.has(workspaceId)) throw WorkspaceNotFound.withId(workspaceId);
    requireScopeWith(creator, "links:create", { workspaceId }, "");
    return workspaceId;
  }
  if (creator.kind === "api-key" && creator.workspaceId !== null) {
    if (asked !== undefined && asked !== creator.workspaceId) throw WorkspaceNotFound.withId(asked);
    requireScopeWith(creator, "links:create", { workspaceId: creator.workspaceId }, "");
    return creator.workspaceId;
  }
  requireScope(creator, "links:create", "creating links needs links:create or links:write");
  if (asked === undefined) return null;
  if (!(await exists(asked))) throw WorkspaceNotFound.withId(asked);
  return asked;
}

/**
 * What acting on a workspace's links together (a listing, an export, an
 * import) needs: of a member or a workspace's key, `member` there; of
 * anyone else, who may also act on every link at once (no workspace
 * named), `everyLink` (403 with `refusal` otherwise).
 */
export interface WorkspaceWork {
  member: ApiKeyScope;
  everyLink: ApiKeyScope;
  refusal: string;
}

export const listing: WorkspaceWork = { member: "links:read", everyLink: "links:read", refusal: "listing every link needs an admin" };
export const exporting: WorkspaceWork = { member: "links:read", everyLink: "links:read", refusal: "exporting every link needs an admin token or session" };
/** Importing sets codes, counts and dates as no create may: within a workspace its editors may, over every link only the admins. */
export const importing: WorkspaceWork = { member: "links:write", everyLink: "admin", refusal: "importing links needs an admin token or session" };

/**
 * The workspace such work acts on (`?workspace=`): a member's or a
 * workspace key's own (a member of one may leave it out; one they may not
 * see is a 404), or, for anyone else with `work.everyLink`, every link
 * (none named) or any workspace that exists (404 otherwise).
 */
export async function workspaceWorkedOn(
  credential: Credential,
  asked: number | undefined,
  exists: (workspaceId: number) => Promise<boolean>,
  work: WorkspaceWork,
): Promise<number | undefined> {
  if (credential.kind === "person" || (credential.kind === "api-key" && credential.workspaceId !== null)) {
    const workspaceId = asked ?? (credential.kind === "person" ? onlyWorkspaceOf(credential.roles) : credential.workspaceId!);
    if (!seesWorkspace(credential, workspaceId)) throw WorkspaceNotFound.withId(workspaceId);
    requireScopeWith(credential, work.member, { workspaceId }, "");
    return workspaceId;
  }
  requireScope(credential, work.everyLink, work.refusal);
  if (asked !== undefined && !(await exists(asked))) throw WorkspaceNotFound.withId(asked);
  return asked;
}

/** A member's one workspace, when they name none. */
function onlyWorkspaceOf(roles: ReadonlyMap<number, unknown>): number {
  const [only, ...others] = roles.keys();
  if (only === undefined) throw Forbidden.because("you are a member of no workspace: make one (POST /workspaces) or accept an invite");
  if (others.length > 0) throw InvalidRequest.because("workspace: you are a member of several workspaces; name one");
  return only;
}
