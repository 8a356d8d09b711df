import { ErrorBody, HttpError, InvalidRequest, maxBulkBodyBytes, maxBulkItems, type Client } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import type { Server } from "elysia/universal";
import type { CredentialResolver } from "../auth/credential-resolver.ts";
import type { Credential } from "../auth/credential.ts";
import { changeSecurity, readSecurity } from "../auth/security-schemes.ts";
import { asksForFresh } from "../http/fresh-read.ts";
import { refuseUnknownFields } from "../http/unknown-fields.ts";
import { publicOrigin, seenFrom as seenFromRequest } from "../http/public-origin.ts";
import { linkState } from "./destination.ts";
import { parseLinkState } from "./link-filters.ts";
import { parseTag } from "./link-options.ts";
import { parseLinkOrder } from "./link-order.ts";
import { managedByAny, mayDo, mayDoWith, requireScope, requireScopeWith } from "../auth/scopes.ts";
import { mayReadLink } from "./url-readers.ts";
import { WorkspaceNotFound } from "../people/people-errors.ts";
import type { AuditLog } from "../audit/audit-log.ts";
import { creationWorkspace, listing, parseWorkspaceField, workspaceWorkedOn, type CreateAccess } from "../people/request-workspace.ts";
import type { Link } from "./link.ts";
import { toListedRecord, toRecord, type Reader, type RecordView } from "./link-record.ts";
import { bulkItem } from "./bulk-item.ts";
import {
  BulkCreateBody,
  BulkCreated,
  CodeParams,
  CreateLinkBody,
  CreatedLink,
  LinkList,
  LinkListQuery,
  LinkRecord,
  LinkStats,
  ManyStats,
  ManyStatsBody,
  maxStatsCodes,
  UpdateLinkBody,
} from "./link-schemas.ts";
import { maxBulkPasswords, type CreateOutcome, type CreateRequest, type LinkService } from "./link-service.ts";
import { linkOwnersOr, peopleOr } from "../auth/callers.ts";
import { defaultDomainId } from "../domains/domain.ts";
import type { DomainDirectory } from "../domains/domain-directory.ts";
import { DomainQuery } from "../domains/domain-query.ts";
import { UnknownDomain } from "../domains/domain-errors.ts";
import { requireDomainUse } from "../domains/domain-use.ts";
import { actorOf } from "../auth/actor.ts";
import type { WorkspaceBudgets } from "../people/workspace-budgets.ts";
import { requireMayOpenVisits } from "./public-stats.ts";
import { domainsSeen, namedDomain, namedLinkKey, recordView, type DomainsSeen } from "./link-address.ts";
import { codeOfKey, keyParts } from "./link-key.ts";
import { createdByOf } from "./link-creator.ts";

export interface LinkRoutesDeps {
  links: LinkService;
  credentials: CredentialResolver;
  publicBaseUrl: URL | undefined;
  /** Whether a request came through a trusted proxy, whose X-Forwarded-Host/-Proto are then believed. */
  clientOf: (request: Request, server: Server | null) => Client;
  clock: () => Date;
  /** Which domain a host is (`domain`, `?domain=`), and the hosts of links on added domains. */
  domains: DomainDirectory;
  /** CREATE_ACCESS: whether anyone may make a link, or only a credential's holder. */
  createAccess: CreateAccess;
  /** Whether a workspace of this id exists (an admin names any). */
  workspaceExists: (workspaceId: number) => Promise<boolean>;
  /** What a workspace's members and keys may do together (RATE_LIMIT_WORKSPACE): a token per link made, per listing page. */
  budgets: WorkspaceBudgets;
  /** Told of each link made, changed or deleted by a credential's holder. */
  audit: AuditLog;
}

const tags = ["short URLs"];
/** Who may make a link when a credential is required (CREATE_ACCESS=members), as its 401 names them. */
const creators = peopleOr("links:create");
/** Who may read a link: its manage token, a member of its workspace, an admin or a key with links:read. */
const linkReaders = linkOwnersOr("links:read");
const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, ErrorBody]));

/** `/shorten/…`: create (one or in bulk), read, stats, update, delete, and the admin listing. */
export function linkRoutes({ links, credentials, publicBaseUrl, clientOf, clock, domains, createAccess, workspaceExists, budgets, audit }: LinkRoutesDeps) {
  // Where the request came from, asked once per request: the origin of its links, and every host it could name us by.
  const seenFrom = (request: Request, server: Server | null) => seenFromRequest(request, publicBaseUrl, clientOf(request, server).viaTrustedProxy);
  const origin = (request: Request, server: Server | null) => publicOrigin(request, publicBaseUrl, clientOf(request, server).viaTrustedProxy);
  // Every record goes through toRecord, which shows a protected link's URLs only to a reader mayReadUrls lets read them.
  const view = (base: string, reader: Reader, seen: DomainsSeen): RecordView => recordView(base, reader, seen, clock());
  // The domain a create names: absent, the default one; one never added is a 400.
  const creatingOn = (seen: DomainsSeen, host: string | undefined): number => {
    const domain = namedDomain(seen, host);
    if (!domain) throw UnknownDomain.named(host ?? "");
    return domain.id;
  };
  // Who reads a public answer: a credential sent that verifies, else no one (a bad credential reads as none, never as a 401).
  const readerOf = async (request: Request, server: Server | null): Promise<Reader> => {
    if (!request.headers.has("authorization") && !request.headers.has("cookie")) return undefined;
    return await credentials.resolve(request, server, linkReaders).catch(() => undefined);
  };

  return new Elysia({ prefix: "/shorten" })
    .post(
      "/",
      async ({ body, request, server, set }) => {
        // CREATE_ACCESS=anyone: anyone may create a link. A credential sent is judged (it must verify) and decides the
        // link's workspace (request-workspace.ts); an API key must be live (the gateway spends its budget) and may create.
        const creator = await credentials.creatorOf(request, server, creators, createAccess === "members", body.workspace != null);
        const from = seenFrom(request, server);
        const seen = await domainsSeen(domains, from.origin);
        const { long_url: longUrl, short_url: alias, domain, workspace, ...options } = body;
        const onDomain = namedDomain(seen, domain);
        if (!onDomain) throw UnknownDomain.named(domain ?? "");
        const domainId = onDomain.id;
        const workspaceId = await creationWorkspace(creator, parseWorkspaceField(workspace), workspaceExists);
        requireDomainUse(onDomain, workspaceId, creator);
        requireMayOpenVisits(creator, { workspaceId }, options.public_stats === true);
        await budgets.spend(creator, workspaceId);
        // A link may lead to no host of ours: the request's, nor any domain's.
        const { link, manageToken } = await links.create({
          longUrl,
          alias,
          options,
          domainId,
          workspaceId,
          createdBy: createdByOf(creator),
          requestHosts: [...from.hosts, ...seen.snapshot.hosts],
        });
        // Anyone else reads the answer as the holder of the manage token it hands over.
        const reader: Reader = creator && creator.kind !== "manage-token" ? creator : { kind: "manage-token", token: manageToken };
        const record = toRecord(link, view(from.origin, reader, seen));
        set.status = 201;
        set.headers.location = `/shorten/${record.short_url}/${domainId === defaultDomainId ? "" : `?domain=${record.domain}`}`;
        // A workspace's link is managed by its members and keys, never by a token (auth/scopes.ts: tokenManages); a key
        // that may create links and nothing else gets no power over the link: it may sit in a web page.
        const handsToken = link.workspaceId === null && (creator?.kind !== "api-key" || mayDoWith(creator, "links:write", link));
        // An anonymous link names no one: the log keeps what people and programs did.
        if (creator && logged(creator)) {
          await audit.record({ workspaceId: link.workspaceId, actor: actorOf(creator), action: "link.create", target: linkTarget(record) });
        }
        return { ...record, manage_token: handsToken ? manageToken : null };
      },
      {
        body: CreateLinkBody,
        transform: refuseUnknownFields(CreateLinkBody),
        response: { 201: CreatedLink, ...errors(400, 401, 403, 409, 413, 415, 429) },
        detail: {
          summary: "Create a short URL (optionally with a custom alias)",
          description:
            "Needs no credential unless CREATE_ACCESS=members (then a person's sign-in token, an API key, an admin's token or session: 401 otherwise). " +
            "A credential sent decides the link's workspace: a member's (name it in workspace when in several), a workspace key's own; " +
            "an admin may name any or none. A program may send its API key (Bearer lgk_…): it must then be live (401 otherwise) and have links:create, links:write " +
            "or admin (403 naming the scope otherwise), and the gateway counts the request against the key's budget instead of the address's. " +
            "A key with links:create alone gets no manage token (null). " +
            "With a password, the answer to a key without links:read shows the link's URLs as null, as its record does. " +
            "An unknown field is a 400 naming it; the record's read-only fields are accepted and ignored.",
          tags,
          security: [{}, { bearer: [] }],
        },
      },
    )
    .post(
      "/bulk",
      async ({ body, request, server }) => {
        const credential = await credentials.resolve(request, server, peopleOr("links:write"));
        // A member or a workspace's key makes links in their workspaces (each item's own), and needs links:write in one of
        // them; anyone else needs links:write everywhere.
        const workspacesOf =
          credential.kind === "person"
            ? [...credential.roles.keys()]
            : credential.kind === "api-key" && credential.workspaceId !== null
              ? [credential.workspaceId]
              : null;
        if (workspacesOf === null) requireScope(credential, "links:write", "creating links in bulk needs an admin or an API key with links:write");
        else if (!workspacesOf.some((workspaceId) => mayDoWith(credential, "links:write", { workspaceId }))) {
          requireScopeWith(credential, "links:write", { workspaceId: workspacesOf[0] ?? null }, "creating links in bulk needs links:write");
        }
        const from = seenFrom(request, server);
        const seen = await domainsSeen(domains, from.origin);
        const existing = new Map<number, Promise<boolean>>();
        const exists = (id: number) => existing.get(id) ?? existing.set(id, workspaceExists(id)).get(id)!;
        const items = await Promise.all(
          body.links.map(async (body): Promise<CreateRequest | HttpError> => {
            const item = bulkItem(body);
            if (item instanceof HttpError) return item;
            const domain = namedDomain(seen, item.domain);
            if (!domain) return UnknownDomain.named(item.domain ?? "");
            try {
              const workspaceId = await creationWorkspace(credential, parseWorkspaceField(item.workspace), exists);
              requireScopeWith(credential, "links:write", { workspaceId }, "creating links in bulk needs links:write");
              requireDomainUse(domain, workspaceId, credential);
              requireMayOpenVisits(credential, { workspaceId }, item.options?.public_stats === true);
              return { ...item, domainId: domain.id, workspaceId, createdBy: createdByOf(credential) };
            } catch (error) {
              if (error instanceof HttpError) return error;
              throw error;
            }
          }),
        );
        // Each workspace's items spend its budget together: all of them are made, or each is answered 429 in its place.
        await refuseOverBudget(items, (workspaceId, count) => budgets.spend(credential, workspaceId, count));
        const outcomes = await links.createMany(
          items.filter((item): item is CreateRequest => !(item instanceof HttpError)),
          [...from.hosts, ...seen.snapshot.hosts],
        );
        const shown = view(from.origin, credential, seen);
        let next = 0;
        const resultOf = (outcome: CreateOutcome) =>
          outcome.ok
            ? {
                status: 201 as const,
                record: { ...toRecord(outcome.link, shown), manage_token: outcome.link.workspaceId === null ? outcome.manageToken : null },
              }
            : { status: outcome.error.status, error: { code: outcome.error.code, message: outcome.error.message } };
        await audit.record(
          ...outcomes.flatMap((outcome) =>
            outcome.ok
              ? [
                  {
                    workspaceId: outcome.link.workspaceId,
                    actor: actorOf(credential),
                    action: "link.create" as const,
                    target: linkTarget(toRecord(outcome.link, shown)),
                  },
                ]
              : [],
          ),
        );
        return { results: items.map((item) => resultOf(item instanceof HttpError ? { ok: false, error: item } : outcomes[next++]!)) };
      },
      {
        body: BulkCreateBody,
        transform: refuseUnknownFields(BulkCreateBody),
        response: { 200: BulkCreated, ...errors(400, 401, 403, 413, 415, 429) },
        detail: {
          summary: "Create many short URLs in one request (API key with links:write, an admin, or a member with links:write in a workspace)",
          description:
            "Each item of links is the body of POST /shorten/ and is answered in its place, in order: 201 with its record and manage token, " +
            "or the 400 or 409 that create alone would have met; one bad or taken item never stops the rest. " +
            "A record shows what the caller may read: a protected link's URLs are null to a key without links:read. " +
            "An alias twice in the request goes to the first. " +
            `At most ${maxBulkItems} items (${maxBulkBodyBytes / 1024 / 1024} MiB), and at most ${maxBulkPasswords} with a password: more is a 400 for the whole request. ` +
            "Through the gateway, a request spends one token of the bulk budget (RATE_LIMIT_BULK), whatever its size.",
          tags,
          security: changeSecurity,
        },
      },
    )
    .get(
      "/",
      async ({ query, request, server }) => {
        const credential = await credentials.resolve(request, server, linkOwnersOr("links:read"));
        const order = parseLinkOrder(query.sort);
        const tag = query.tag === undefined ? undefined : parseTag(query.tag);
        const state = parseLinkState(query.state);
        // Worked out once for the page, not once per link.
        const base = origin(request, server);
        const seen = await domainsSeen(domains, base);
        // A manage token's listing is its own link: how a browser adds a link made elsewhere.
        if (credential.kind === "manage-token") {
          return {
            count: 1,
            count_is_estimate: false,
            next: null,
            previous: null,
            results: [toListedRecord(await links.managedBy(credential.token), view(base, credential, seen))],
          };
        }
        const workspaceId = await workspaceWorkedOn(credential, parseWorkspaceField(query.workspace), workspaceExists, listing);
        await budgets.spend(credential, workspaceId);
        const page = query.page ?? 1;
        const pageSize = query.page_size ?? 20;
        const domainId = query.domain === undefined ? undefined : creatingOn(seen, query.domain);
        const result = await links.list({
          page,
          pageSize,
          search: query.q || undefined,
          order,
          tag,
          state,
          domainId,
          workspaceId,
          fresh: asksForFresh(request.headers),
        });
        const shown = view(base, credential, seen);
        const pageUrl = (n: number) => {
          const url = new URL(`${base}/shorten/`);
          url.searchParams.set("page", String(n));
          url.searchParams.set("page_size", String(pageSize));
          if (query.q) url.searchParams.set("q", query.q);
          if (query.sort !== undefined) url.searchParams.set("sort", order);
          if (tag !== undefined) url.searchParams.set("tag", tag);
          if (state !== undefined) url.searchParams.set("state", state);
          if (query.domain !== undefined) url.searchParams.set("domain", query.domain);
          if (workspaceId !== undefined) url.searchParams.set("workspace", String(workspaceId));
          return url.toString();
        };
        return {
          count: result.count,
          count_is_estimate: result.countIsEstimate,
          next: result.hasMore ? pageUrl(page + 1) : null,
          previous: page > 1 ? pageUrl(Math.min(page - 1, Math.max(1, Math.ceil(result.count / pageSize)))) : null,
          results: result.links.map((link) => toListedRecord(link, shown)),
        };
      },
      {
        query: LinkListQuery,
        response: { 200: LinkList, ...errors(400, 401, 403, 429) },
        detail: {
          summary: "List short URLs (admin), a workspace's (its members and keys), or the one link a manage token manages",
          description:
            "An admin (token or session) gets every link, newest, most visited or last visited first, in pages; " +
            "workspace narrows it to one workspace's, and a member (or a workspace's key) gets their workspace's only: " +
            "a member of several names it, and a workspace they are no member of is a 404. " +
            "q, tag and state narrow it, each alone or together. " +
            "A manage token gets the link it manages as a page of one (page, page_size, q, sort, tag and state change nothing), or 401 when no link has it.",
          tags,
          security: readSecurity,
        },
      },
    )
    .get(
      "/:short_url",
      async ({ params, query, request, server }) => {
        const base = origin(request, server);
        const seen = await domainsSeen(domains, base);
        const link = await links.get(namedLinkKey(seen, params.short_url, query.domain));
        // The credential is looked for only where it may change the answer: a session cookie costs a database read.
        return toRecord(link, view(base, await readerOf(request, server), seen));
      },
      {
        params: CodeParams,
        query: DomainQuery,
        response: { 200: LinkRecord, ...errors(404) },
        detail: {
          summary: "Read a short URL (does not count as an access)",
          description:
            "Anyone may ask. The options (title, tags, caps, rules, password state, state) are in the answer only for those who may read the link: " +
            "its manage token, a member of its workspace, an admin, a key with links:read. A password-protected link's long_url is null to anyone else.",
          tags,
        },
      },
    )
    .post(
      "/stats",
      async ({ body, request, server }) => {
        const reader = await readerOf(request, server);
        const managed = managedByAny(body.manage_tokens ?? []);
        const now = clock();
        // Without a credential of an admin, a person or a key, only the links whose manage tokens are sent: else 500
        // codes a request would tell which exist, around the gateway's budget of misses (GET /shorten/<code>/stats/ spends it).
        const accountable = reader !== undefined && reader.kind !== "manage-token";
        const asked = (await links.getMany(body.short_urls)).filter((link) => accountable || managed(link));
        return { results: asked.map((link) => statsOf(link, now, managed(link) || mayReadLink(link, reader))) };
      },
      {
        body: ManyStatsBody,
        response: { 200: ManyStats, ...errors(400, 413, 415) },
        detail: {
          summary: "Access statistics of many short URLs at once",
          description:
            `Up to ${maxStatsCodes} codes; the answer lists those that exist, in the order asked, each once (a code no link has is left out). ` +
            "Without an admin's, a person's or a key's credential, only the links whose manage token is in manage_tokens are listed. " +
            "What GET /shorten/<code>/stats/ says of each, in one request: a page listing many links spends one request of its rate budget, not one per link. " +
            "state and password_protected are said of the links the caller may read, and of those whose manage token is in manage_tokens.",
          tags,
        },
      },
    )
    .get(
      "/:short_url/stats",
      async ({ params, query, request, server }) => {
        const seen = await domainsSeen(domains, origin(request, server));
        const link = await links.get(namedLinkKey(seen, params.short_url, query.domain));
        return statsOf(link, clock(), mayReadLink(link, await readerOf(request, server)));
      },
      {
        params: CodeParams,
        query: DomainQuery,
        response: { 200: LinkStats, ...errors(404) },
        detail: {
          summary: "Access statistics of a short URL",
          description: 'Anyone may ask; state and password_protected are said only to those who may read the link (docs/people.md: "Private by default").',
          tags,
        },
      },
    )
    .put(
      "/:short_url",
      async ({ params, query, body, request, server }) => {
        const credential = await credentials.resolve(request, server, linkOwnersOr("links:write"));
        const from = seenFrom(request, server);
        const seen = await domainsSeen(domains, from.origin);
        const key = namedLinkKey(seen, params.short_url, query.domain);
        const { domain, workspace: named, ...changes } = body;
        if (domain !== undefined && namedDomain(seen, domain)?.id !== keyParts(key).domainId) {
          throw InvalidRequest.because("domain cannot be changed: send the link's own domain, or leave it out");
        }
        const workspace = named === null ? null : parseWorkspaceField(named);
        // An admin moves a link: to a workspace that exists (the store would refuse it less clearly), which may use its domain.
        const moving = workspace !== undefined && mayDo(credential, "admin");
        const before = moving ? await links.get(key) : undefined;
        if (moving && workspace !== null && !(await workspaceExists(workspace))) throw WorkspaceNotFound.withId(workspace);
        const onDomain = moving ? seen.snapshot.withId(keyParts(key).domainId) : undefined;
        if (onDomain) requireDomainUse(onDomain, workspace ?? null, credential);
        const link = await links.update(key, { ...changes, workspace }, credential, [...from.hosts, ...seen.snapshot.hosts]);
        const record = toRecord(link, view(from.origin, credential, seen));
        if (logged(credential)) {
          // A link moved out of a workspace is told in that workspace's log too.
          const logs = new Set([link.workspaceId, before?.workspaceId ?? link.workspaceId]);
          await audit.record(
            ...[...logs].map((workspaceId) => ({ workspaceId, actor: actorOf(credential), action: "link.update" as const, target: linkTarget(record) })),
          );
        }
        return record;
      },
      {
        params: CodeParams,
        query: DomainQuery,
        body: UpdateLinkBody,
        transform: refuseUnknownFields(UpdateLinkBody),
        response: { 200: LinkRecord, ...errors(400, 401, 403, 404, 413, 415) },
        detail: {
          summary: "Change the long URL or options (manage token, a member or key of its workspace, or an admin's token or session)",
          description:
            "Each field sent is set; null clears an option; fields not sent stay as they are. The answer shows what the caller may read: " +
            "a protected link's URLs are null to a key without links:read, which may change what it may not read.",
          tags,
          security: changeSecurity,
        },
      },
    )
    .delete(
      "/:short_url",
      async ({ params, query, request, server, set }) => {
        const base = origin(request, server);
        const seen = await domainsSeen(domains, base);
        const credential = await credentials.resolve(request, server, linkOwnersOr("links:write"));
        const link = await links.delete(namedLinkKey(seen, params.short_url, query.domain), credential);
        await audit.record({
          workspaceId: link.workspaceId,
          actor: actorOf(credential),
          action: "link.delete",
          target: linkTarget(toRecord(link, view(base, credential, seen))),
        });
        set.status = 204;
      },
      {
        params: CodeParams,
        query: DomainQuery,
        response: { 204: t.Void(), ...errors(401, 403, 404) },
        detail: {
          summary: "Delete a short URL (manage token, a member or key of its workspace, or an admin's token or session)",
          tags,
          security: changeSecurity,
        },
      },
    );
}

/**
 * Whether what `credential` does to a link goes in the audit log: not a
 * manage token's, whose holder may be anyone at all (as an anonymous
 * creator is), so an open instance's visitors cannot crowd out of the
 * instance's log what admins and programs did. A workspace's link has no
 * manage token.
 */
function logged(credential: Credential): boolean {
  return credential.kind !== "manage-token";
}

/** A link as the audit log names it: its host and code. */
function linkTarget(record: { domain: string; short_url: string }): string {
  return `${record.domain}/${record.short_url}`;
}

/** A link's public statistics (LinkStats): its count, and its state and protection as its public record says them. */
/**
 * Spends each workspace's budget for its items of a bulk create, one token
 * an item; the items of a workspace whose budget refuses become its 429,
 * each in its place, as a create alone would have met it.
 */
async function refuseOverBudget(items: (CreateRequest | HttpError)[], spend: (workspaceId: number, count: number) => Promise<void>): Promise<void> {
  const counts = new Map<number, number>();
  for (const item of items) if (!(item instanceof HttpError) && item.workspaceId != null) counts.set(item.workspaceId, (counts.get(item.workspaceId) ?? 0) + 1);
  for (const [workspaceId, count] of counts) {
    const refusal = await spend(workspaceId, count).then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof HttpError) return error;
        throw error;
      },
    );
    if (!refusal) continue;
    for (const [index, item] of items.entries()) if (!(item instanceof HttpError) && item.workspaceId === workspaceId) items[index] = refusal;
  }
}

/** A link's stats: the seed's fields for anyone, its state and password's presence for a reader of it (`readsLink`). */
function statsOf(link: Link, now: Date, readsLink: boolean): LinkStats {
  const stats = { short_url: codeOfKey(link.code), access_count: link.accessCount, last_accessed_at: link.lastAccessedAt?.toISOString() ?? null };
  return readsLink ? { ...stats, state: linkState(link, now), password_protected: link.passwordHash !== null } : stats;
}
