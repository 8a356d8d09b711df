/**
 * The API calls of the workspaces page (docs/people.md): a person's
 * workspaces, a workspace's members and invites, its keys, its audit log
 * and its links. Every change sends the person's CSRF token (`credential`);
 * the sign-in itself is the browser's cookie.
 */
import type { KeyCalls } from "./admin-keys.ts";
import type { Credential } from "./api.ts";
import { type Answer, call, type RequestBody } from "./api-call.ts";

export type Workspace = Answer<"GET /workspaces/">["results"][number];
export type Role = "owner" | "editor" | "viewer";
export const roles: readonly Role[] = ["owner", "editor", "viewer"];
export type Member = Answer<"GET /workspaces/{id}/members">["results"][number];
export type AuditPage = Answer<"GET /workspaces/{id}/audit">;
export type AuditEvent = AuditPage["results"][number];
export type WorkspaceLinks = Answer<"GET /shorten/">;
export type WorkspaceLink = WorkspaceLinks["results"][number];
export type Invite = Answer<"POST /workspaces/{id}/invites">;
export type Joined = Answer<"POST /invites/{token}/accept">;

/** The workspaces of the person signed in (at most 100: one answer), oldest first. */
export async function myWorkspaces(signal?: AbortSignal): Promise<Workspace[]> {
  return (await call("GET /workspaces/", { signal, fresh: true })).results;
}

export function makeWorkspace(name: string, credential: Credential): Promise<Workspace> {
  return call("POST /workspaces/", { body: { name }, credential });
}

export async function membersOf(workspace: number, signal?: AbortSignal): Promise<Member[]> {
  return (await call("GET /workspaces/{id}/members", { params: { id: String(workspace) }, signal, fresh: true })).results;
}

export function changeRole(workspace: number, person: number, role: Role, credential: Credential): Promise<Member> {
  return call("PATCH /workspaces/{id}/members/{person}", { params: { id: String(workspace), person: String(person) }, body: { role }, credential });
}

export function removeMember(workspace: number, person: number, credential: Credential): Promise<void> {
  return call("DELETE /workspaces/{id}/members/{person}", { params: { id: String(workspace), person: String(person) }, credential });
}

/** An invite: its token is in this answer only. */
export function invite(workspace: number, role: Role, credential: Credential): Promise<Invite> {
  return call("POST /workspaces/{id}/invites", { params: { id: String(workspace) }, body: { role }, credential });
}

/** Joins with an invite: as the person signed in (`credential`), or as a new person (`account`). */
export function acceptInvite(token: string, join: { credential: Credential } | { account: { username: string; password: string } }): Promise<Joined> {
  return "credential" in join
    ? call("POST /invites/{token}/accept", { params: { token }, body: {}, credential: join.credential })
    : call("POST /invites/{token}/accept", { params: { token }, body: join.account });
}

/** A page of the log, newest first; `before`: the id the page before ended on (its `next`). */
export function auditOf(workspace: number, before: number | undefined, signal?: AbortSignal): Promise<AuditPage> {
  return call("GET /workspaces/{id}/audit", { params: { id: String(workspace) }, query: { limit: 50, before }, signal, fresh: true });
}

/** Where a workspace's whole log downloads (the cookie goes by itself with a GET). */
export const auditFileOf = (workspace: number) => `/workspaces/${workspace}/audit?format=csv`;

/** Where a workspace's links download as CSV. */
export const linksFileOf = (workspace: number) => `/admin/export/links?workspace=${workspace}&format=csv`;

/** A page of the workspace's links, newest first, matching `q` ("" for every one). */
export function linksOf(workspace: number, page: number, q: string, signal?: AbortSignal): Promise<WorkspaceLinks> {
  return call("GET /shorten/", { query: { workspace: String(workspace), page, page_size: 20, sort: "newest", ...(q ? { q } : {}) }, signal, fresh: true });
}

/** A link to make: its destination, and `short_url`, the alias asked for (absent: a generated code). */
export type NewWorkspaceLink = { long_url: string; short_url?: string };

export function makeLink(workspace: number, link: NewWorkspaceLink, credential: Credential): Promise<Answer<"POST /shorten/">> {
  return call("POST /shorten/", { body: { ...link, workspace } as RequestBody<"POST /shorten/">, credential });
}

/** A workspace's keys: the same panel as the admin's keys (components/api-keys), over `/workspaces/<id>/api-keys`. */
export function workspaceKeyCalls(workspace: number): KeyCalls {
  const params = { id: String(workspace) };
  return {
    list: async (signal) => (await call("GET /workspaces/{id}/api-keys", { params, signal, fresh: true })).results,
    create: (input, credential) => call("POST /workspaces/{id}/api-keys", { params, body: input, credential }),
    revoke: (key, credential) => call("DELETE /workspaces/{id}/api-keys/{key}", { params: { ...params, key }, credential }),
  };
}
