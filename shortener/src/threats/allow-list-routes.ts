import { ErrorBody } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import type { Server } from "elysia/universal";
import type { AuditLog } from "../audit/audit-log.ts";
import { actorOf } from "../auth/actor.ts";
import type { Credential } from "../auth/credential.ts";
import type { CredentialResolver } from "../auth/credential-resolver.ts";
import { changeSecurity, readSecurity } from "../auth/security-schemes.ts";
import { refuseUnknownFields } from "../http/unknown-fields.ts";
import type { AllowEntry } from "./allow-entry.ts";
import { adminListNames, type AllowList } from "./allow-list.ts";

const tags = ["Abuse protection"];
const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, ErrorBody]));

const AllowEntryView = t.Object(
  {
    id: t.Integer({ examples: [1] }),
    domain: t.Union([t.String(), t.Null()], { description: "A domain, with every name under it; null for a URL's entry", examples: ["example.com"] }),
    url: t.Union([t.String(), t.Null()], { description: "One URL, as the feeds' URLs are compared; null for a domain's entry", examples: [null] }),
    created_at: t.String({ format: "date-time" }),
  },
  { title: "AllowEntry" },
);

// Types only; the rules (one of the two, a host name, an http(s) URL) are allowEntryOf's, whose 400 names the field.
const AllowBody = t.Object(
  {
    domain: t.Optional(t.Unknown({ description: "A host name: it and every name under it are on the list", examples: ["example.com"] })),
    url: t.Optional(t.Unknown({ description: "An http(s) URL: that URL is on the list", examples: ["https://example.com/page"] })),
  },
  { additionalProperties: false },
);

const viewOf = (entry: AllowEntry) => ({
  id: entry.id,
  domain: entry.kind === "domain" ? entry.value : null,
  url: entry.kind === "url" ? entry.value : null,
  created_at: entry.createdAt.toISOString(),
});

export interface AllowListRoutesDeps {
  /** The allow-list (`/admin/allow-list`) or the ban list (`/admin/ban-list`). */
  allowList: AllowList;
  credentials: CredentialResolver;
  /** Told of each entry added or deleted (the instance's log). */
  audit: AuditLog;
}

/**
 * `/admin/allow-list`: admins (or a key with the admin scope) allow what the threat feeds list; `/admin/ban-list`:
 * they refuse a domain or URL as a feed would (docs/abuse.md). One set of routes, for either list.
 */
export function allowListRoutes({ allowList, credentials, audit }: AllowListRoutesDeps) {
  const verdict = allowList.verdict;
  const noun = adminListNames[verdict];
  const asAdmin = (request: Request, server: Server | null): Promise<Credential> => credentials.admin(request, server, `the ${noun} is the admins'`);
  const path = verdict === "allow" ? "/admin/allow-list" : "/admin/ban-list";
  const summaries =
    verdict === "allow"
      ? {
          add: "Allow a domain or a URL whatever the threat feeds say (admin)",
          remove: "Take an entry off the allow-list (admin): the feeds' refusals stand again",
        }
      : { add: "Ban a domain or a URL as a threat feed would (admin)", remove: "Take an entry off the ban list (admin)" };

  return new Elysia({ prefix: path })
    .post(
      "",
      async ({ body, request, server, set }) => {
        const admin = await asAdmin(request, server);
        const added = await allowList.add(body);
        await audit.record({ workspaceId: null, actor: actorOf(admin), action: `${verdict}.create`, target: `${added.kind} ${added.value}` });
        set.status = 201;
        set.headers.location = `${path}/${added.id}`;
        return viewOf(added);
      },
      {
        body: AllowBody,
        transform: refuseUnknownFields(AllowBody),
        response: { 201: AllowEntryView, ...errors(400, 401, 403, 409, 413, 415) },
        detail: {
          summary: summaries.add,
          description: "Send {domain} or {url}. Every replica counts it within a second. The same entry twice is a 409.",
          tags,
          security: changeSecurity,
        },
      },
    )
    .get(
      "",
      async ({ request, server }) => {
        await asAdmin(request, server);
        return { results: (await allowList.list()).map(viewOf) };
      },
      {
        response: { 200: t.Object({ results: t.Array(AllowEntryView) }), ...errors(401, 403) },
        detail: { summary: `The ${noun}, oldest first (admin)`, tags, security: readSecurity },
      },
    )
    .delete(
      "/:id",
      async ({ params, request, server, set }) => {
        const admin = await asAdmin(request, server);
        await allowList.remove(params.id);
        await audit.record({ workspaceId: null, actor: actorOf(admin), action: `${verdict}.delete`, target: `#${params.id}` });
        set.status = 204;
      },
      {
        params: t.Object({ id: t.String() }),
        response: { 204: t.Void(), ...errors(401, 403, 404) },
        detail: { summary: summaries.remove, tags, security: changeSecurity },
      },
    );
}
