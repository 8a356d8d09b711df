import { ErrorBody, InvalidRequest } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import type { AuditLog } from "../audit/audit-log.ts";
import type { Credential } from "../auth/credential.ts";
import type { Server } from "elysia/universal";
import type { CredentialResolver } from "../auth/credential-resolver.ts";
import { changeSecurity, readSecurity } from "../auth/security-schemes.ts";
import { refuseUnknownFields } from "../http/unknown-fields.ts";
import { requestHostName } from "./domain-host.ts";
import type { DomainRequest, Domains } from "./domains.ts";
import { actorOf } from "../auth/actor.ts";

const tags = ["Domains"];
const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, ErrorBody]));
const nullableUrl = (description: string, example: string) => t.Union([t.String({ format: "uri" }), t.Null()], { description, examples: [example] });

const DomainView = t.Object(
  {
    id: t.Integer({ description: "0 is the default domain", examples: [1] }),
    host: t.String({ examples: ["go.example.com"] }),
    default: t.Boolean(),
    root_url: nullableUrl("Where / on this host sends a visitor; null: the home page on the default domain, a 404 on another", "https://example.com/"),
    not_found_url: nullableUrl("Where an unknown code on this host sends a visitor; null: the not-found page", "https://example.com/404"),
    expired_url: nullableUrl("Where this host's expired or used-up links send a visitor when they name none; null: 410", "https://example.com/gone"),
    redirect_status: t.Union([t.UnionEnum([301, 302, 307, 308]), t.Null()], { description: "Of this host's links that name none; null: REDIRECT_STATUS" }),
    created_at: t.String({ format: "date-time" }),
    workspaces: t.Array(t.Integer(), { description: "The workspaces granted it: only they and the admins make links on it; none: the instance's" }),
  },
  { title: "Domain" },
);

// Types only; the rules (a host name, URLs a visitor may be sent to, a status) are Domains', whose 400 names the field.
const settingFields = {
  root_url: t.Optional(t.Unknown({ description: "An http(s) URL or null", examples: ["https://example.com/"] })),
  not_found_url: t.Optional(t.Unknown({ description: "An http(s) URL or null", examples: ["https://example.com/404"] })),
  expired_url: t.Optional(t.Unknown({ description: "An http(s) URL or null", examples: ["https://example.com/gone"] })),
  redirect_status: t.Optional(t.Unknown({ description: "301, 302, 307, 308 or null", examples: [301] })),
};
const CreateDomainBody = t.Object(
  {
    host: t.Unknown({ description: "A DNS name (no scheme, port or path), stored in lower case and punycode", examples: ["go.example.com"] }),
    ...settingFields,
  },
  { additionalProperties: false },
);
const ChangeDomainBody = t.Object(
  {
    host: t.Optional(t.Unknown({ description: "A new host for an added domain (its links move with it)", examples: ["links.example.com"] })),
    workspaces: t.Optional(
      t.Unknown({
        description: "The workspaces granted the domain (their ids): only they and the admins make links on it; [] gives it back to the instance",
        examples: [[1, 2]],
      }),
    ),
    ...settingFields,
  },
  { additionalProperties: false },
);

export interface DomainRoutesDeps {
  domains: Domains;
  credentials: CredentialResolver;
  /** The host the request came by and every `host[:port]` it names (public-origin.ts), as the link routes see them. */
  seenFrom: (request: Request, server: Server | null) => { origin: string; hosts: ReadonlySet<string> };
  /** Told of each domain added, changed or deleted (the instance's log). */
  audit: AuditLog;
}

/** `/admin/domains`: admins (or a key with the admin scope) add, list, change and delete the hosts links are served on. */
export function domainRoutes({ domains, credentials, seenFrom, audit }: DomainRoutesDeps) {
  const asAdmin = async (request: Request, server: Server | null): Promise<DomainRequest & { admin: Credential }> => {
    const admin = await credentials.admin(request, server, "domains are managed by admins");
    const from = seenFrom(request, server);
    return { hostName: requestHostName(new URL(from.origin).host), requestHosts: [...from.hosts], admin };
  };

  return new Elysia({ prefix: "/admin/domains" })
    .post(
      "",
      async ({ body, request, server, set }) => {
        const from = await asAdmin(request, server);
        const created = await domains.create(body, from);
        await audit.record({ workspaceId: null, actor: actorOf(from.admin), action: "domain.create", target: created.host ?? "" });
        set.status = 201;
        set.headers.location = `/admin/domains/${created.id}`;
        return created;
      },
      {
        body: CreateDomainBody,
        transform: refuseUnknownFields(CreateDomainBody),
        response: { 201: DomainView, ...errors(400, 401, 403, 409, 413, 415) },
        detail: {
          summary: "Add a domain (admin): its host then serves links of its own",
          description: "Codes are unique per domain. A host already a domain, or the default domain's, is a 409.",
          tags,
          security: changeSecurity,
        },
      },
    )
    .get(
      "",
      async ({ request, server }) => {
        const from = await asAdmin(request, server);
        return { results: await domains.list(from) };
      },
      {
        response: { 200: t.Object({ results: t.Array(DomainView) }), ...errors(401, 403) },
        detail: { summary: "Every domain, the default one first, then by host (admin)", tags, security: readSecurity },
      },
    )
    .patch(
      "/:id",
      async ({ params, body, request, server }) => {
        const from = await asAdmin(request, server);
        const changed = await domains.update(params.id, body, from);
        await audit.record({ workspaceId: null, actor: actorOf(from.admin), action: "domain.update", target: changed.host ?? "" });
        return changed;
      },
      {
        params: t.Object({ id: t.String() }),
        body: ChangeDomainBody,
        transform: refuseUnknownFields(ChangeDomainBody),
        response: { 200: DomainView, ...errors(400, 401, 403, 404, 409, 413, 415) },
        detail: { summary: "Change a domain's host or settings (admin); a field left out stays, null clears it", tags, security: changeSecurity },
      },
    )
    .delete(
      "/:id",
      async ({ params, query, request, server, set }) => {
        const { admin } = await asAdmin(request, server);
        if (query.links !== undefined && query.links !== "delete") throw InvalidRequest.because("links must be delete, or left out");
        await domains.remove(params.id, query.links ?? "refuse");
        await audit.record({ workspaceId: null, actor: actorOf(admin), action: "domain.delete", target: `#${params.id.replace(/[^0-9]/g, "").slice(0, 12)}` });
        set.status = 204;
      },
      {
        params: t.Object({ id: t.String() }),
        query: t.Object({
          links: t.Optional(
            t.String({ description: "delete: the domain's links are deleted with it. Left out: a domain with links is a 409", examples: ["delete"] }),
          ),
        }),
        response: { 204: t.Void(), ...errors(400, 401, 403, 404, 409) },
        detail: {
          summary: "Delete an added domain (admin); the default one always exists",
          description: "A domain with links is deleted only with ?links=delete, which deletes its links (their counts and visits) with it.",
          tags,
          security: changeSecurity,
        },
      },
    );
}
