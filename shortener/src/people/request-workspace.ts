import { Forbidden, InvalidRequest, Unauthorized } from "@linkgeo/shared";
import type { Credential } from "../auth/credential.ts";
import { requireScope, requireScopeWith, seesWorkspace } from "../auth/scopes.ts";
import { WorkspaceNotFound } from "./people-errors.ts";

/** CREATE_ACCESS: who may make a link; `anyone` (the default, with no credential) or `members` (a credential is required). */
export const createAccesses = ["anyone", "members"] as const;
export type CreateAccess = (typeof createAccesses)[number];

/** What POST /shorten/'s `workspace` and a listing's ?workspace= may be: a workspace's id, as a number or a string of digits. */
export function parseWorkspaceField(raw: unknown): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  const text = typeof raw === "number" ? String(raw) : raw;
  if (typeof text !== "string" || !/^[1-9][0-9]{0,9}$/.test(text) || Number(text) > 2 ** 31 - 1) {
    throw InvalidRequest.because("workspace must be a workspace's id (GET /workspaces)");
  }
  return Number(text);
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
 * The workspace a listing or an export of links reads (`?workspace=`): a
 * member's or a workspace key's own (a member in one may leave it out; one
 * they may not see is a 404), or for an admin and an admin's key with
 * links:read every link (none named) or any workspace that exists.
 */
export async function listingWorkspace(
  reader: Credential,
  asked: number | undefined,
  exists: (workspaceId: number) => Promise<boolean>,
  refusal = "listing every link needs an admin",
): Promise<number | undefined> {
  if (reader.kind === "person" || (reader.kind === "api-key" && reader.workspaceId !== null)) {
    const workspaceId = asked ?? (reader.kind === "person" ? onlyWorkspaceOf(reader.roles) : reader.workspaceId!);
    if (!seesWorkspace(reader, workspaceId)) throw WorkspaceNotFound.withId(workspaceId);
    requireScopeWith(reader, "links:read", { workspaceId }, "");
    return workspaceId;
  }
  requireScope(reader, "links:read", refusal);
  if (asked !== undefined && !(await exists(asked))) throw WorkspaceNotFound.withId(asked);
  return asked;
}

/**
 * The workspace an import fills (POST /admin/import?workspace=): a
 * member's or a workspace key's own, with links:write there (an owner or
 * an editor; a member of one may leave it out); for an admin (or a key
 * with the admin scope), who alone imports without one, any that exists.
 * Importing sets codes, counts and dates as no create may: within a
 * workspace its editors may, over every link only the admins.
 */
export async function importWorkspace(
  importer: Credential,
  asked: number | undefined,
  exists: (workspaceId: number) => Promise<boolean>,
): Promise<number | undefined> {
  if (importer.kind === "person" || (importer.kind === "api-key" && importer.workspaceId !== null)) {
    const workspaceId = asked ?? (importer.kind === "person" ? onlyWorkspaceOf(importer.roles) : importer.workspaceId!);
    if (!seesWorkspace(importer, workspaceId)) throw WorkspaceNotFound.withId(workspaceId);
    requireScopeWith(importer, "links:write", { workspaceId }, "");
    return workspaceId;
  }
  requireScope(importer, "admin", "importing links needs an admin token or session");
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
