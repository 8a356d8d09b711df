import { csvRow, ErrorBody, Forbidden, InvalidRequest, querySchema } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import type { Server } from "elysia/universal";
import { peopleOr } from "../auth/callers.ts";
import type { Credential } from "../auth/credential.ts";
import type { CredentialResolver } from "../auth/credential-resolver.ts";
import { mayDo } from "../auth/scopes.ts";
import { readSecurity } from "../auth/security-schemes.ts";
import { WorkspaceNotFound } from "./people-errors.ts";
import { auditActions, type AuditEvent } from "../audit/audit-event.ts";
import type { AuditLog } from "../audit/audit-log.ts";

const tags = ["people"];
const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, ErrorBody]));

const EventView = t.Object(
  {
    id: t.Integer({ description: "Ask for the events before it with ?before=" }),
    at: t.String({ format: "date-time" }),
    actor: t.Object({
      kind: t.UnionEnum(["admin", "person", "api-key", "manage-token"]),
      id: t.Union([t.String(), t.Null()], { description: "The admin's or person's username, the key's id; null for a manage token (never a secret)" }),
    }),
    action: t.UnionEnum([...auditActions]),
    target: t.String({ description: "A link (host/code, or its code on the default domain), a key's id, a username, a host; with a detail after a space" }),
  },
  { title: "AuditEvent" },
);

const AuditQuery = querySchema({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 1_000, default: 100 })),
  before: t.Optional(
    t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "Only the events older than this one (an event's id): the next page" }),
  ),
  format: t.Optional(t.String({ description: "json (pages; the default), or csv or ndjson: the whole log, newest first" })),
});

type AuditFormat = "json" | "csv" | "ndjson";

/** ?format=: a page as JSON (absent), or the whole log as a file; anything else is a 400, whoever asks. */
function auditFormat(raw: string | undefined): AuditFormat {
  if (raw === undefined || raw === "json" || raw === "csv" || raw === "ndjson") return raw ?? "json";
  throw InvalidRequest.because("format must be json, csv or ndjson");
}

const viewOf = (event: AuditEvent) => ({ id: event.id, at: event.at.toISOString(), actor: event.actor, action: event.action, target: event.target });
const columns = ["id", "at", "actor_kind", "actor_id", "action", "target"];

export interface AuditRoutesDeps {
  audit: AuditLog;
  credentials: CredentialResolver;
  /** Whether a workspace of this id exists (the admins read any). */
  workspaceExists: (workspaceId: number) => Promise<boolean>;
  /** The workspace's id in a path, or a 404. */
  workspaceIdIn: (raw: string) => number;
}

/** `GET /workspaces/<id>/audit` (its owners, the admins) and `GET /admin/audit` (the instance's log, the admins): docs/people.md. */
export function auditRoutes({ audit, credentials, workspaceExists, workspaceIdIn }: AuditRoutesDeps) {
  /** A page of the log as JSON, or the whole log as a file. */
  const answer = async (workspaceId: number | null, format: AuditFormat, query: { limit?: number; before?: number }, request: Request) => {
    if (format === "json") {
      const limit = query.limit ?? 100;
      const events = await audit.page(workspaceId, limit, query.before);
      const next = events.length === limit ? new URL(request.url) : null;
      next?.searchParams.set("before", String(events.at(-1)!.id));
      return { results: events.map(viewOf), next: next === null ? null : `${next.pathname}${next.search}` };
    }
    const events = await audit.page(workspaceId, audit.keep);
    const body =
      format === "csv"
        ? csvRow(columns) + events.map((e) => csvRow([String(e.id), e.at.toISOString(), e.actor.kind, e.actor.id ?? "", e.action, e.target])).join("")
        : events.map((e) => `${JSON.stringify(viewOf(e))}\n`).join("");
    return new Response(body, {
      headers: {
        "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson",
        "content-disposition": `attachment; filename="audit-${workspaceId ?? "instance"}.${format}"`,
        "cache-control": "no-store",
      },
    });
  };

  /** The workspace's owners and the admins read its log; its other members are 403, anyone else 404. */
  const mayRead = async (workspaceId: number, credential: Credential): Promise<void> => {
    if (credential.kind === "person") {
      const role = credential.roles.get(workspaceId);
      if (role === undefined) throw WorkspaceNotFound.withId(workspaceId);
      if (role !== "owner") throw Forbidden.because("a workspace's audit log is its owners' to read");
      return;
    }
    if (!mayDo(credential, "admin") || !(await workspaceExists(workspaceId))) throw WorkspaceNotFound.withId(workspaceId);
  };

  // The JSON page's shape, for the docs: the route answers a file too, which a response schema could not let through.
  const page: { type: "object" } = JSON.parse(
    JSON.stringify(t.Object({ results: t.Array(EventView), next: t.Union([t.String(), t.Null()]) }, { title: "AuditPage" })),
  );
  const documented = { response: errors(400, 401, 403, 404) };
  const responses = {
    200: {
      description: "A page of events (json), or the whole log (csv, ndjson)",
      content: {
        "application/json": { schema: page },
        "text/csv": { schema: { type: "string" as const } },
        "application/x-ndjson": { schema: { type: "string" as const } },
      },
    },
    ...Object.fromEntries([400, 401, 403, 404].map((status) => [status, { description: "Error", content: { "application/json": { schema: ErrorBody } } }])),
  };
  return new Elysia()
    .get(
      "/workspaces/:id/audit",
      async ({ params, query, request, server }) => {
        const id = workspaceIdIn(params.id);
        const format = auditFormat(query.format);
        await mayRead(id, await credentials.resolve(request, server as Server | null, peopleOr("admin")));
        return answer(id, format, query, request);
      },
      {
        params: t.Object({ id: t.String() }),
        query: AuditQuery,
        ...documented,
        detail: {
          summary: "A workspace's audit log, newest first (its owners, the admins)",
          description:
            "Who did what to which link, key or member, and when: {results, next}, a page of limit events (next asks for the older ones), " +
            "or the whole log as csv or ndjson. The log keeps its newest 10,000 events.",
          tags,
          security: readSecurity,
          responses,
        },
      },
    )
    .get(
      "/admin/audit",
      async ({ query, request, server }) => {
        const format = auditFormat(query.format);
        await credentials.admin(request, server as Server | null, "the instance's audit log is the admins'");
        return answer(null, format, query, request);
      },
      {
        query: AuditQuery,
        ...documented,
        detail: {
          summary: "The instance's audit log, newest first (admins)",
          description:
            "What admins and keys did to links of no workspace, API keys, domains and people, and when; as a workspace's log (GET /workspaces/<id>/audit).",
          tags,
          security: readSecurity,
          responses,
        },
      },
    );
}
