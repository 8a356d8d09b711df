import { ErrorBody } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import type { Server } from "elysia/universal";
import type { AuditLog } from "../audit/audit-log.ts";
import { actorOf } from "../auth/actor.ts";
import type { CredentialResolver } from "../auth/credential-resolver.ts";
import { changeSecurity, readSecurity } from "../auth/security-schemes.ts";
import type { DomainDirectory } from "../domains/domain-directory.ts";
import { refuseUnknownFields } from "../http/unknown-fields.ts";
import { domainsSeen, linkLabel, namedLinkKey, recordView, type DomainsSeen } from "../links/link-address.ts";
import { linkCreator } from "../links/link-creator.ts";
import { toRecord, type Reader } from "../links/link-record.ts";
import { LinkRecord } from "../links/link-schemas.ts";
import type { QueuedReport, Reports } from "./reports.ts";
import { maxReportNote, reportActions, reportReasons } from "./report.ts";

const tags = ["Abuse protection"];
const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, ErrorBody]));

/** Reports a page of the queue shows. */
const queuePage = 50;

// Types only; the reason's list and the note's bounds are Reports.submit's, whose 400 names them.
const ReportBody = t.Object(
  {
    short_url: t.String({ maxLength: 2100, description: "The short link reported: the whole link, or its code", examples: ["https://go.example.com/Ab3dE9x"] }),
    domain: t.Optional(t.String({ maxLength: 260, description: "The link's domain (its host), for a code alone; the default domain when absent" })),
    reason: t.String({ description: `One of ${reportReasons.join(", ")}`, examples: ["phishing"] }),
    note: t.Optional(t.Union([t.String({ description: `What the reporter saw, at most ${maxReportNote} characters` }), t.Null()])),
  },
  { additionalProperties: false },
);

const ActionBody = t.Object(
  { action: t.String({ description: `One of ${reportActions.join(", ")}`, examples: ["quarantine"] }) },
  { additionalProperties: false },
);

const ReportView = t.Object(
  {
    id: t.Integer(),
    reason: t.String({ examples: ["phishing"] }),
    note: t.Union([t.String(), t.Null()]),
    created_at: t.String({ format: "date-time" }),
    resolution: t.Union([t.String(), t.Null()], { description: "The action that resolved it; null while it waits in the queue" }),
    resolved_at: t.Union([t.String({ format: "date-time" }), t.Null()]),
    link: t.Union([LinkRecord, t.Null()], { description: "The link as an admin reads it: its destination, state, visits and workspace" }),
    creator: t.Object(
      {
        kind: t.Union([t.Literal("api-key"), t.Literal("person"), t.Literal("admin"), t.Literal("anonymous")]),
        id: t.Union([t.String(), t.Null()], { description: "The key's id, or the person's or admin's username; null for anyone" }),
      },
      { description: "Who made the link" },
    ),
  },
  { title: "Report" },
);

export interface ReportRoutesDeps {
  reports: Reports;
  credentials: CredentialResolver;
  domains: DomainDirectory;
  /** The default domain's origin for a request (PUBLIC_BASE_URL's, or as the gateway forwarded it). */
  originOf: (request: Request, server: Server | null) => string;
  clock: () => Date;
  /** Told of each action (the instance's log). */
  audit: AuditLog;
}

/**
 * `POST /report`: anyone reports a harmful link (rate limited at the gateway);
 * `GET /admin/reports` and `POST /admin/reports/<id>/actions`: the admins'
 * queue and what they do about each report (docs/abuse.md).
 */
export function reportRoutes({ reports, credentials, domains, originOf, clock, audit }: ReportRoutesDeps) {
  const viewOf = (queued: QueuedReport, reader: Reader, seen: DomainsSeen, origin: string) => ({
    id: queued.report.id,
    reason: queued.report.reason,
    note: queued.report.note,
    created_at: queued.report.createdAt.toISOString(),
    resolution: queued.report.resolution,
    resolved_at: queued.report.resolvedAt?.toISOString() ?? null,
    link: queued.link && toRecord(queued.link, recordView(origin, reader, seen, clock())),
    creator: linkCreator(queued.link?.createdBy ?? null),
  });

  return new Elysia()
    .post(
      "/report",
      async ({ body, request, server, set }) => {
        const origin = originOf(request, server);
        const seen = await domainsSeen(domains, origin);
        const { code, host } = reportedLink(body.short_url, body.domain);
        await reports.submit(namedLinkKey(seen, code, host), body);
        set.status = 202;
        return { status: "received" };
      },
      {
        body: ReportBody,
        transform: refuseUnknownFields(ReportBody),
        response: { 202: t.Object({ status: t.Literal("received") }), ...errors(400, 404, 413, 415, 429) },
        detail: {
          summary: "Report a harmful short link (anyone)",
          description:
            "The admins see it in their queue. Nothing of who reported is kept. 404 for a link that does not exist. " +
            "Rate limited per client address with link creation's budget.",
          tags,
        },
      },
    )
    .get(
      "/admin/reports",
      async ({ query, request, server }) => {
        const admin = await credentials.admin(request, server, "the reports' queue is the admins'");
        const origin = originOf(request, server);
        const seen = await domainsSeen(domains, origin);
        const before = query.before === undefined ? undefined : Number(query.before);
        const page = await reports.page({ open: query.state !== "all", limit: queuePage, before });
        const last = page.at(-1);
        return { results: page.map((queued) => viewOf(queued, admin, seen, origin)), next_before: page.length === queuePage && last ? last.report.id : null };
      },
      {
        query: t.Object({
          state: t.Optional(t.Union([t.Literal("open"), t.Literal("all")], { description: "open (default): the queue; all: resolved ones too" })),
          before: t.Optional(t.String({ pattern: "^[0-9]{1,15}$", description: "The next page: next_before of the last one" })),
        }),
        response: { 200: t.Object({ results: t.Array(ReportView), next_before: t.Union([t.Integer(), t.Null()]) }), ...errors(400, 401, 403) },
        detail: { summary: "The reports' queue, newest first (admin)", tags, security: readSecurity },
      },
    )
    .post(
      "/admin/reports/:id/actions",
      async ({ params, body, request, server }) => {
        const admin = await credentials.admin(request, server, "the reports' queue is the admins'");
        const origin = originOf(request, server);
        const seen = await domainsSeen(domains, origin);
        const acted = await reports.act(params.id, body.action);
        const target = acted.link ? linkLabel(seen, acted.link.code) : `#${params.id}`;
        await audit.record({ workspaceId: null, actor: actorOf(admin), action: "report.resolve", target: `${target} ${body.action}` });
        const banned = body.action === "ban_domain" && acted.link ? URL.parse(acted.link.longUrl)?.hostname : undefined;
        if (banned) await audit.record({ workspaceId: null, actor: actorOf(admin), action: "ban.create", target: `domain ${banned}` });
        return viewOf(acted, admin, seen, origin);
      },
      {
        params: t.Object({ id: t.String() }),
        body: ActionBody,
        transform: refuseUnknownFields(ActionBody),
        response: { 200: ReportView, ...errors(400, 401, 403, 404, 409, 413, 415) },
        detail: {
          summary: "Act on a report (admin): quarantine, disable, ban_domain, revoke_key or dismiss",
          description:
            "quarantine and disable hold the link; ban_domain puts its destination's host on the ban list and quarantines it; " +
            "revoke_key revokes the API key that made it (409 when none did); dismiss does nothing. Each but revoke_key resolves every open report of the link.",
          tags,
          security: changeSecurity,
        },
      },
    );
}

/**
 * The code and host a report names: a whole short link, with or without its scheme (its host, unless `domain` says
 * otherwise), or a code on `domain`.
 */
function reportedLink(shortUrl: string, domain: string | undefined): { code: string; host: string | undefined } {
  const trimmed = shortUrl.trim().replace(/^\/+|\/+$/g, "");
  if (!trimmed.includes("/")) return { code: trimmed, host: domain };
  const url = URL.parse(/^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  const code = url?.pathname.replace(/^\/+|\/+$/g, "") ?? "";
  return { code, host: domain ?? url?.host };
}
