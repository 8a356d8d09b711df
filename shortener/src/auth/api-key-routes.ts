import { ErrorBody } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import type { Server } from "elysia/universal";
import { apiKeyScopes } from "./api-key.ts";
import type { ApiKeys } from "./api-keys.ts";
import type { CredentialResolver } from "./credential-resolver.ts";
import { changeSecurity, readSecurity } from "./security-schemes.ts";
import type { AuditLog } from "../audit/audit-log.ts";
import { actorOf } from "./actor.ts";

const tags = ["API keys"];
const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, ErrorBody]));

export const ApiKeyView = t.Object(
  {
    id: t.String({ examples: ["key_V1StGXR8_Z5jdHi6"] }),
    name: t.String({ examples: ["import script"] }),
    scopes: t.Array(t.UnionEnum(apiKeyScopes)),
    created_at: t.String({ format: "date-time" }),
    expires_at: t.Union([t.String({ format: "date-time" }), t.Null()]),
    last_used_at: t.Union([t.String({ format: "date-time" }), t.Null()], { description: "Within about ten seconds" }),
    workspace: t.Union([t.Integer(), t.Null()], { description: "The workspace of a key made there (POST /workspaces/<id>/api-keys); null for an admin's key" }),
  },
  { title: "ApiKey" },
);

export const CreatedApiKey = t.Composite(
  [ApiKeyView, t.Object({ key: t.String({ description: "Shown once: send it as Authorization: Bearer lgk_…", examples: ["lgk_…"] }) })],
  { title: "CreatedApiKey" },
);

// Types only; the rules (a name, known scopes, a future expiry) are ApiKeys', whose 400 names the field.
export const CreateApiKeyBody = t.Object({
  name: t.Unknown({ description: "1 to 100 characters, for people", examples: ["import script"] }),
  scopes: t.Unknown({ description: `One or more of ${apiKeyScopes.join(", ")}`, examples: [["links:read", "links:write"]] }),
  expires_at: t.Optional(
    t.Unknown({ description: "ISO 8601 with a zone; the key stops working then. Absent or null: never", examples: ["2027-06-30T00:00:00Z"] }),
  ),
});

export interface ApiKeyRoutesDeps {
  keys: ApiKeys;
  credentials: CredentialResolver;
  /** Told of each key made or revoked (the instance's log). */
  audit: AuditLog;
}

/** `/admin/api-keys`: admins (or a key with the admin scope) make, list and revoke API keys. */
export function apiKeyRoutes({ keys, credentials, audit }: ApiKeyRoutesDeps) {
  const asAdmin = (request: Request, server: Server | null) => credentials.admin(request, server, "API keys are managed by admins");

  return new Elysia({ prefix: "/admin/api-keys" })
    .post(
      "",
      async ({ body, request, server, set }) => {
        const admin = await asAdmin(request, server);
        const { view, key } = await keys.create(body);
        await audit.record({ workspaceId: null, actor: actorOf(admin), action: "key.create", target: `${view.id} ${view.scopes.join(",")}` });
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        return { ...view, key };
      },
      {
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKey, ...errors(400, 401, 403, 413, 415) },
        detail: {
          summary: "Make an API key (admin): the key is shown once",
          description:
            "Scopes: links:read (list and read every link, export), links:write (create, change and delete any link, bulk create), " +
            "links:create (create links and nothing else: no link's record beyond the one it made, no manage token; safe in a web page), " +
            "visits:read (every visits report), admin (everything an admin may do, API keys included). Only the key's SHA-256 is stored.",
          tags,
          security: changeSecurity,
        },
      },
    )
    .get(
      "",
      async ({ request, server }) => {
        await asAdmin(request, server);
        return { results: (await keys.list()).map(({ view }) => view) };
      },
      {
        response: { 200: t.Object({ results: t.Array(ApiKeyView) }), ...errors(401, 403) },
        detail: { summary: "Every API key, newest first, the workspaces' too (admin); never a key itself", tags, security: readSecurity },
      },
    )
    .delete(
      "/:id",
      async ({ params, request, server, set }) => {
        const admin = await asAdmin(request, server);
        await keys.revoke(params.id);
        await audit.record({ workspaceId: null, actor: actorOf(admin), action: "key.revoke", target: params.id });
        set.status = 204;
      },
      {
        params: t.Object({ id: t.String() }),
        response: { 204: t.Void(), ...errors(401, 403, 404) },
        detail: { summary: "Revoke an API key (admin): it stops working on every replica within a second", tags, security: changeSecurity },
      },
    );
}
