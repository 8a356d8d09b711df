import { ErrorBody, InvalidRequest, querySchema } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import { peopleOnly, peopleOr } from "../auth/callers.ts";
import type { CredentialResolver } from "../auth/credential-resolver.ts";
import { changeSecurity, readSecurity } from "../auth/security-schemes.ts";
import { refuseUnknownFields } from "../http/unknown-fields.ts";
import { rowIdOf } from "../http/row-id.ts";
import { MemberNotFound, WorkspaceNotFound } from "./people-errors.ts";
import { workspaceRoles, type WorkspaceMember } from "./workspace.ts";
import type { WorkspaceInvites } from "./workspace-invites.ts";
import type { WorkspaceKeys } from "./workspace-keys.ts";
import { ApiKeyView, CreateApiKeyBody, CreatedApiKey } from "../auth/api-key-routes.ts";
import type { AuditLog } from "../audit/audit-log.ts";
import { workspaceNameMaxLength, type SeenWorkspace, type Workspaces } from "./workspaces.ts";
import { actorOf } from "../auth/actor.ts";

const tags = ["people"];
const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, ErrorBody]));

const NewWorkspaceBody = t.Object(
  { name: t.Unknown({ description: `1 to ${workspaceNameMaxLength} characters once trimmed, no control characters`, examples: ["Marketing"] }) },
  { additionalProperties: false },
);

const WorkspaceView = t.Object(
  {
    id: t.Integer({ examples: [1] }),
    name: t.String({ examples: ["Marketing"] }),
    role: t.Union([t.UnionEnum([...workspaceRoles]), t.Null()], { description: "The caller's role in it; null for an admin, above every workspace" }),
    created_at: t.String({ format: "date-time" }),
  },
  { title: "Workspace" },
);

const viewOf = (workspace: SeenWorkspace) => ({
  id: workspace.id,
  name: workspace.name,
  role: workspace.role,
  created_at: workspace.createdAt.toISOString(),
});

const WorkspaceKeyBody = t.Object(CreateApiKeyBody.properties, { additionalProperties: false });

const RoleBody = t.Object(
  { role: t.Unknown({ description: "owner, editor or viewer: the role whoever accepts it will have", examples: ["editor"] }) },
  { additionalProperties: false },
);
const AcceptBody = t.Object(
  {
    username: t.Optional(t.Unknown({ description: "A new person's username (without a person's bearer token)", examples: ["nina"] })),
    password: t.Optional(t.Unknown({ description: "A new person's password", examples: ["a long passphrase"] })),
  },
  { additionalProperties: false },
);
const InviteId = t.String({ description: "The invite's id, to withdraw it: never its token", examples: ["3f9a0c1be27d4a56"] });
const Invite = t.Object(
  {
    id: InviteId,
    token: t.String({ description: "Shown once: POST /invites/<token>/accept", examples: ["lgi_…"] }),
    expires_at: t.String({ format: "date-time" }),
  },
  { title: "WorkspaceInvite" },
);
const PendingInvite = t.Object(
  {
    id: InviteId,
    role: t.UnionEnum([...workspaceRoles]),
    made_by: t.Object({ id: t.Integer(), username: t.String() }),
    created_at: t.String({ format: "date-time" }),
    expires_at: t.String({ format: "date-time" }),
  },
  { title: "PendingInvite" },
);
const MemberView = t.Object(
  {
    id: t.Integer({ description: "The person's id" }),
    username: t.String(),
    role: t.UnionEnum([...workspaceRoles]),
    joined_at: t.String({ format: "date-time" }),
  },
  { title: "WorkspaceMember" },
);
const memberView = (member: WorkspaceMember) => ({
  id: member.personId,
  username: member.username,
  role: member.role,
  joined_at: member.joinedAt.toISOString(),
});

/** An id in a path (http/row-id.ts), else `missing` (a 404). */
function idIn(raw: string, missing: (raw: string) => Error): number {
  const id = rowIdOf(raw);
  if (id === undefined) throw missing(raw);
  return id;
}
/** A workspace's id in a path: a 404 for anything that could be none. */
export const workspaceIdIn = (raw: string) => idIn(raw, WorkspaceNotFound.withId);
const memberIdIn = (raw: string) => idIn(raw, MemberNotFound.withId);

export interface WorkspaceRoutesDeps {
  workspaces: Workspaces;
  invites: WorkspaceInvites;
  keys: WorkspaceKeys;
  credentials: CredentialResolver;
  /** Told of each invite, member changed and key made or revoked. */
  audit: AuditLog;
}

const WorkspaceListQuery = querySchema({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 1_000, default: 100, description: "An admin's page: how many workspaces" })),
  // An id column is a 32-bit integer (http/row-id.ts): a larger after is no id, and Postgres would refuse to compare it.
  after: t.Optional(t.Integer({ minimum: 0, maximum: 2 ** 31 - 1, description: "An admin's page: the workspaces after this id" })),
});

/**
 * `POST /workspaces`: a person makes one and owns it; `GET /workspaces`: the
 * caller's; its members and invites; `POST /invites/<token>/accept`
 * (docs/people.md).
 */
export function workspaceRoutes({ workspaces, invites, keys, credentials, audit }: WorkspaceRoutesDeps) {
  return new Elysia({ prefix: "/workspaces" })
    .post(
      "/",
      async ({ body, request, server, set }) => {
        const made = await workspaces.create(body, await credentials.resolve(request, server, peopleOnly));
        set.status = 201;
        return viewOf(made);
      },
      {
        body: NewWorkspaceBody,
        transform: refuseUnknownFields(NewWorkspaceBody),
        response: { 201: WorkspaceView, ...errors(400, 401, 403, 413, 415) },
        detail: { summary: "Make a workspace: the person signed in is its owner", tags, security: changeSecurity },
      },
    )
    .get(
      "/",
      async ({ query, request, server }) => {
        const credential = await credentials.resolve(request, server, peopleOr("admin"));
        const limit = query.limit ?? 100;
        const listed = await workspaces.list(credential, { after: query.after ?? 0, limit });
        // A person's list is whole; an admin's is a page, and a full one may have more after it.
        const next = credential.kind !== "person" && listed.length === limit ? new URL(request.url) : null;
        next?.searchParams.set("after", String(listed.at(-1)!.id));
        return { results: listed.map(viewOf), next: next === null ? null : `${next.pathname}${next.search}` };
      },
      {
        query: WorkspaceListQuery,
        response: {
          200: t.Object({ results: t.Array(WorkspaceView), next: t.Union([t.String(), t.Null()], { description: "The next page (an admin's), or null" }) }),
          ...errors(400, 401, 403),
        },
        detail: {
          summary: "The workspaces of the person signed in, with their role; every one for an admin, a page at a time",
          description: "A person's are all in one answer. An admin's are limit at a time (100 by default), oldest first; next asks for the page after.",
          tags,
          security: readSecurity,
        },
      },
    )
    .delete(
      "/:id",
      async ({ params, query, request, server, set }) => {
        const id = workspaceIdIn(params.id);
        if (query.links !== undefined && query.links !== "delete") throw InvalidRequest.because("links must be delete, or left out");
        const credential = await credentials.resolve(request, server, peopleOr("admin"));
        const { workspace, links } = await workspaces.delete(id, query.links ?? "refuse", credential);
        keys.forgotten(id);
        // The workspace's own log went with it: the instance's keeps its end.
        await audit.record({ workspaceId: null, actor: actorOf(credential), action: "workspace.delete", target: `${workspace.name} (${links} links)` });
        set.status = 204;
      },
      {
        params: t.Object({ id: t.String() }),
        query: t.Object({
          links: t.Optional(t.String({ description: "delete: the workspace's links are deleted with it. Left out: a workspace with links is a 409" })),
        }),
        response: { 204: t.Void(), ...errors(400, 401, 403, 404, 409) },
        detail: {
          summary: "Delete a workspace (its owners, the admins): its members, invites, keys, domain grants and audit log go with it",
          tags,
          security: changeSecurity,
        },
      },
    )
    .get(
      "/:id/members",
      async ({ params, request, server }) => {
        const id = workspaceIdIn(params.id);
        return { results: (await workspaces.members(id, await credentials.resolve(request, server, peopleOr("admin")))).map(memberView) };
      },
      {
        params: t.Object({ id: t.String() }),
        response: { 200: t.Object({ results: t.Array(MemberView) }), ...errors(401, 404) },
        detail: { summary: "A workspace's members and their roles: for its members and the admins (404 for anyone else)", tags, security: readSecurity },
      },
    )
    .patch(
      "/:id/members/:person",
      async ({ params, body, request, server }) => {
        const id = workspaceIdIn(params.id);
        const credential = await credentials.resolve(request, server, peopleOnly);
        // A role and nothing else: no role here would remove the member, which is DELETE's.
        const role = typeof body.role === "string" ? body.role : undefined;
        const changed = await workspaces.changeMember(id, memberIdIn(params.person), role, credential);
        await audit.record({ workspaceId: id, actor: actorOf(credential), action: "member.role", target: `${changed.username} ${changed.role}` });
        return memberView(changed);
      },
      {
        params: t.Object({ id: t.String(), person: t.String() }),
        body: RoleBody,
        transform: refuseUnknownFields(RoleBody),
        response: { 200: MemberView, ...errors(400, 401, 403, 404, 409, 413, 415) },
        detail: { summary: "Change a member's role (its owners); the last owner stays one (409)", tags, security: changeSecurity },
      },
    )
    .delete(
      "/:id/members/:person",
      async ({ params, request, server, set }) => {
        const id = workspaceIdIn(params.id);
        const credential = await credentials.resolve(request, server, peopleOnly);
        const removed = await workspaces.changeMember(id, memberIdIn(params.person), null, credential);
        keys.forgotten(id, removed.personId);
        await audit.record({ workspaceId: id, actor: actorOf(credential), action: "member.remove", target: removed.username });
        set.status = 204;
      },
      {
        params: t.Object({ id: t.String(), person: t.String() }),
        response: { 204: t.Void(), ...errors(401, 403, 404, 409) },
        detail: { summary: "Remove a member (its owners); the last owner stays (409)", tags, security: changeSecurity },
      },
    )
    .post(
      "/:id/invites",
      async ({ params, body, request, server, set }) => {
        const id = workspaceIdIn(params.id);
        const credential = await credentials.resolve(request, server, peopleOnly);
        const made = await invites.make(id, body, credential);
        await audit.record({ workspaceId: id, actor: actorOf(credential), action: "member.invite", target: String(body.role) });
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        return { id: made.id, token: made.token, expires_at: made.expiresAt.toISOString() };
      },
      {
        params: t.Object({ id: t.String() }),
        body: RoleBody,
        transform: refuseUnknownFields(RoleBody),
        response: { 201: Invite, ...errors(400, 401, 403, 404, 413, 415) },
        detail: { summary: "Invite someone to a workspace with a role: a token shown once, for a week (its owners)", tags, security: changeSecurity },
      },
    )
    .get(
      "/:id/invites",
      async ({ params, request, server }) => {
        const id = workspaceIdIn(params.id);
        const credential = await credentials.resolve(request, server, peopleOnly);
        const pending = await invites.list(id, credential);
        return {
          results: pending.map((invite) => ({
            id: invite.id,
            role: invite.role,
            made_by: invite.madeBy,
            created_at: invite.createdAt.toISOString(),
            expires_at: invite.expiresAt.toISOString(),
          })),
        };
      },
      {
        params: t.Object({ id: t.String() }),
        response: { 200: t.Object({ results: t.Array(PendingInvite) }), ...errors(401, 403, 404) },
        detail: {
          summary: "The invites that may still be accepted, oldest first (its owners); never their tokens",
          description:
            "An invite holds only while the owner who made it is an owner there: those of a member removed or made an editor or viewer are not listed.",
          tags,
          security: readSecurity,
        },
      },
    )
    .delete(
      "/:id/invites/:invite",
      async ({ params, request, server, set }) => {
        const id = workspaceIdIn(params.id);
        const credential = await credentials.resolve(request, server, peopleOnly);
        await invites.revoke(id, params.invite, credential);
        await audit.record({ workspaceId: id, actor: actorOf(credential), action: "invite.revoke", target: params.invite });
        set.status = 204;
      },
      {
        params: t.Object({ id: t.String(), invite: t.String() }),
        response: { 204: t.Void(), ...errors(401, 403, 404) },
        detail: { summary: "Withdraw an invite before anyone accepts it (its owners): its link answers 404 from then on", tags, security: changeSecurity },
      },
    )
    .post(
      "/:id/api-keys",
      async ({ params, body, request, server, set }) => {
        const id = workspaceIdIn(params.id);
        const credential = await credentials.resolve(request, server, peopleOnly);
        const { view, key } = await keys.make(id, body, credential);
        await audit.record({ workspaceId: id, actor: actorOf(credential), action: "key.create", target: `${view.id} ${view.scopes.join(",")}` });
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        return { ...view, key };
      },
      {
        params: t.Object({ id: t.String() }),
        body: WorkspaceKeyBody,
        transform: refuseUnknownFields(WorkspaceKeyBody),
        response: { 201: CreatedApiKey, ...errors(400, 401, 403, 404, 413, 415) },
        detail: {
          summary: "Make a key of the workspace (its owners and editors): the key is shown once",
          description:
            "Scopes as an admin's key (links:read, links:write, links:create, visits:read; never admin), over the workspace's links only, " +
            "and never beyond the maker's role (403 naming the scope). The key stops working within a second on every replica " +
            "once its maker's role no longer allows one of its scopes (demoted or removed).",
          tags,
          security: changeSecurity,
        },
      },
    )
    .get(
      "/:id/api-keys",
      async ({ params, request, server }) => {
        const id = workspaceIdIn(params.id);
        return { results: await keys.list(id, await credentials.resolve(request, server, peopleOr("admin"))) };
      },
      {
        params: t.Object({ id: t.String() }),
        response: { 200: t.Object({ results: t.Array(ApiKeyView) }), ...errors(401, 403, 404) },
        detail: { summary: "A workspace's keys, newest first: every one for its owners and the admins, an editor's own", tags, security: readSecurity },
      },
    )
    .delete(
      "/:id/api-keys/:key",
      async ({ params, request, server, set }) => {
        const id = workspaceIdIn(params.id);
        const credential = await credentials.resolve(request, server, peopleOr("admin"));
        await keys.revoke(id, params.key, credential);
        await audit.record({ workspaceId: id, actor: actorOf(credential), action: "key.revoke", target: params.key });
        set.status = 204;
      },
      {
        params: t.Object({ id: t.String(), key: t.String() }),
        response: { 204: t.Void(), ...errors(401, 403, 404) },
        detail: {
          summary: "Revoke a key of the workspace (its owners, an editor their own, the admins): it stops on every replica within a second",
          tags,
          security: changeSecurity,
        },
      },
    );
}

/** `POST /invites/<token>/accept`: a person signed in, or a new one with a username and password, joins. */
export function inviteRoutes({ invites, credentials, audit }: Pick<WorkspaceRoutesDeps, "invites" | "credentials" | "audit">) {
  return new Elysia().post(
    "/invites/:token/accept",
    async ({ params, body, request, server }) => {
      // Signed in (a token, or the browser's cookie with its CSRF token): that person joins; else a new person of the body.
      const signedIn = request.headers.has("authorization") || credentials.carriesPersonCookie(request);
      const credential = signedIn ? await credentials.resolve(request, server, peopleOnly) : undefined;
      const { workspace, role, username } = await invites.accept(params.token, body ?? {}, credential);
      await audit.record({ workspaceId: workspace, actor: { kind: "person", id: username }, action: "member.join", target: `${username} ${role}` });
      return { workspace, role };
    },
    {
      params: t.Object({ token: t.String() }),
      body: t.Optional(AcceptBody),
      transform: refuseUnknownFields(AcceptBody),
      response: {
        200: t.Object({ workspace: t.Integer({ description: "The workspace's id" }), role: t.UnionEnum([...workspaceRoles]) }, { title: "AcceptedInvite" }),
        ...errors(400, 401, 403, 404, 409, 413, 415),
      },
      detail: {
        summary: "Accept an invite: join its workspace with its role, as the person signed in or as a new person",
        description:
          "With a person's bearer token, that person joins; without one, send {username, password}: a new person is made (the rules of POST /admin/users) and joins. " +
          "An unknown, used, expired or withdrawn invite (its maker no longer an owner there) is 404, and no account is made; someone in the workspace already is 409 and the invite is kept.",
        tags,
      },
    },
  );
}
