import { Forbidden } from "@linkgeo/shared";
import { roleAllows } from "./roles.ts";
import type { ApiKeyScope } from "./api-key.ts";
import type { Credential } from "./credential.ts";
import { hashManageToken, looksLikeManageToken, manageTokenMatches } from "./manage-token.ts";

/** A link as far as who may touch it goes: the workspace it belongs to, if any. */
export interface OwnedLink {
  workspaceId: number | null;
}

/** Whether a key's scopes grant `scope`: `admin` is every scope, `links:write` takes in `links:create`. */
function scopesGrant(scopes: readonly ApiKeyScope[], scope: ApiKeyScope): boolean {
  return scopes.includes(scope) || scopes.includes("admin") || (scope === "links:create" && scopes.includes("links:write"));
}

/**
 * Whether `credential` may do what `scope` names on any link: an admin may
 * do everything, an admin's key what its scopes say; a workspace's key, a
 * person and a manage token none of it (they act on some links only:
 * `mayDoWith`, LinkService.authorized).
 */
export function mayDo(credential: Credential, scope: ApiKeyScope): boolean {
  if (credential.kind === "admin") return true;
  if (credential.kind === "api-key") return credential.workspaceId === null && scopesGrant(credential.scopes, scope);
  return false;
}

/**
 * Whether `credential` may do what `scope` names with `link`: as on any
 * link (`mayDo`), or within the link's workspace, a key of that workspace
 * by its scopes and a member by their role (auth/roles.ts).
 */
export function mayDoWith(credential: Credential, scope: ApiKeyScope, link: OwnedLink): boolean {
  if (mayDo(credential, scope)) return true;
  if (link.workspaceId === null) return false;
  if (credential.kind === "api-key") return credential.workspaceId === link.workspaceId && scopesGrant(credential.scopes, scope);
  if (credential.kind === "person") {
    const role = credential.roles.get(link.workspaceId);
    return role !== undefined && roleAllows(role, scope);
  }
  return false;
}

/**
 * Whether `credential` may know that `link` exists at all: a member and a
 * workspace's key see their workspaces' links only, and anything else
 * answers 404 to them, as if it did not exist (docs/people.md). An admin,
 * an admin's key and a manage token are told 403 where they may not act.
 */
export function seesLink(credential: Credential, link: OwnedLink): boolean {
  if (credential.kind === "person") return link.workspaceId !== null && credential.roles.has(link.workspaceId);
  if (credential.kind === "api-key" && credential.workspaceId !== null) return link.workspaceId === credential.workspaceId;
  return true;
}

/**
 * Whether `credential` may see workspace `workspaceId`'s links: an admin and
 * an admin's key with links:read, its members, its own keys. The rest is a
 * 404, as if it did not exist.
 */
export function seesWorkspace(credential: Credential, workspaceId: number): boolean {
  if (credential.kind === "person") return credential.roles.has(workspaceId);
  if (credential.kind === "api-key" && credential.workspaceId !== null) return credential.workspaceId === workspaceId;
  return credential.kind === "admin" || credential.kind === "api-key";
}

/**
 * Whether a manage token manages `link`: its own token, on a link of no
 * workspace. A workspace's links are managed by its members and keys
 * only, so that removing a member takes their power over them: a link
 * made in a workspace hands out no token, and one an admin moves into a
 * workspace leaves its token behind.
 */
export function tokenManages(token: string, link: OwnedLink & { manageTokenHash: string }): boolean {
  return link.workspaceId === null && manageTokenMatches(token, link.manageTokenHash);
}

/**
 * Which links any of `tokens` manages, as tokenManages judges one: each
 * token hashed once, so a list of links is checked against a list of
 * tokens in one pass (POST /shorten/stats/ with manage_tokens). The answer
 * says whether a token matched, so a constant-time compare would hide
 * nothing here.
 */
export function managedByAny(tokens: readonly string[]): (link: OwnedLink & { manageTokenHash: string }) => boolean {
  const hashes = new Set(tokens.filter(looksLikeManageToken).map(hashManageToken));
  return (link) => link.workspaceId === null && hashes.has(link.manageTokenHash);
}

/** 403 unless `credential` may do what `scope` names: naming the scope for a key, `refusal` for anyone else. */
export function requireScope(credential: Credential, scope: ApiKeyScope, refusal: string): void {
  if (mayDo(credential, scope)) return;
  refuse(credential, scope, refusal);
}

/** 403 unless `credential` may do what `scope` names with `link`; as requireScope. */
export function requireScopeWith(credential: Credential, scope: ApiKeyScope, link: OwnedLink, refusal: string): void {
  if (mayDoWith(credential, scope, link)) return;
  refuse(credential, scope, credential.kind === "person" ? `your role in the link's workspace does not allow ${scope}` : refusal);
}

function refuse(credential: Credential, scope: ApiKeyScope, refusal: string): never {
  if (credential.kind === "api-key" && credential.workspaceId !== null && scopesGrant(credential.scopes, scope)) {
    throw Forbidden.because("this API key is a workspace's: it acts on its workspace's links only");
  }
  if (credential.kind === "api-key") throw Forbidden.because(`this API key lacks the scope ${scope}`);
  throw Forbidden.because(refusal);
}
