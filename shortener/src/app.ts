import {
  BoundedMap,
  bulkCreateBody,
  clientOf,
  defaultImportMaxBytes,
  forwardedOrigin,
  defaultTrustedProxies,
  parseIpRangeList,
  importUploadBody,
  redirectBatchBody,
  serviceApp,
  terseBodyFailures,
  unlockFormBody,
  type IpRange,
  type Logger,
  type ReadinessCheck,
  type MetricsRegistry,
} from "@linkgeo/shared";
import type { Server } from "elysia/universal";
import { AdminLogin } from "./admins/admin-login.ts";
import { adminRoutes } from "./admins/admin-routes.ts";
import { sessionRoutes } from "./admins/session-routes.ts";
import type { AdminStore } from "./admins/admin-store.ts";
import { AdminSessions } from "./auth/admin-sessions.ts";
import type { AdminSessionStore } from "./auth/admin-session-store.ts";
import { AdminTokens } from "./auth/admin-tokens.ts";
import { domainRoutes } from "./domains/domain-routes.ts";
import { rootRoutes } from "./domains/root-routes.ts";
import { People } from "./people/people.ts";
import { peopleRoutes } from "./people/people-routes.ts";
import { PersonSessions } from "./people/person-sessions.ts";
import { inviteRoutes, workspaceIdIn, workspaceRoutes } from "./people/workspace-routes.ts";
import { WorkspaceInvites } from "./people/workspace-invites.ts";
import type { WorkspaceStore } from "./people/workspace-store.ts";
import { Workspaces } from "./people/workspaces.ts";
import type { CreateAccess } from "./people/request-workspace.ts";
import { WorkspaceKeys } from "./people/workspace-keys.ts";
import type { PeopleStore } from "./people/people-store.ts";
import { Domains } from "./domains/domains.ts";
import { DomainDirectory, type UnknownHosts } from "./domains/domain-directory.ts";
import type { DomainStore } from "./domains/domain-store.ts";
import { apiKeyRoutes } from "./auth/api-key-routes.ts";
import type { ApiKeys } from "./auth/api-keys.ts";
import { CredentialResolver } from "./auth/credential-resolver.ts";
import { securitySchemesFor } from "./auth/security-schemes.ts";
import { SessionCookie } from "./auth/session-cookie.ts";
import type { LinkCache } from "./cache/link-cache.ts";
import { ownOrigins, publicOrigin, seenFrom } from "./http/public-origin.ts";
import { linkRoutes } from "./links/link-routes.ts";
import { LinkService } from "./links/link-service.ts";
import { LinkTargets, type LinkTargetRules } from "./links/link-targets.ts";
import { type ThreatCheck, unlistedDomainUrl } from "./links/threat-check.ts";
import type { AllowStore } from "./threats/allow-entry.ts";
import { AllowList } from "./threats/allow-list.ts";
import { allowListRoutes } from "./threats/allow-list-routes.ts";
import type { RecheckStore } from "./threats/recheck-store.ts";
import type { ReportStore } from "./threats/report.ts";
import { reportRoutes } from "./threats/report-routes.ts";
import { Reports } from "./threats/reports.ts";
import { ThreatRecheck } from "./threats/threat-recheck.ts";
import type { LinkStore } from "./links/link-store.ts";
import type { RedirectStatus } from "./links/link-options.ts";
import { redirectBatchRoutes } from "./links/redirect-batch-routes.ts";
import { redirectResponder } from "./links/redirect-responder.ts";
import { redirectRoutes } from "./links/redirect-routes.ts";
import { generateCode } from "./links/short-code.ts";
import type { AppObserver } from "./shortener-metrics.ts";
import { storageUnavailable } from "./storage/storage-unavailable.ts";
import { importRoutes } from "./transfer/import-routes.ts";
import { Importer } from "./transfer/importer.ts";
import { transferRoutes } from "./transfer/transfer-routes.ts";
import { VisitReports } from "./visits/visit-reports.ts";
import { visitRoutes } from "./links/visit-routes.ts";
import type { VisitStore } from "./visits/visit-store.ts";
import type { CountedDestination } from "./links/destination.ts";
import type { VisitCounter } from "./visits/visit-counter.ts";
import type { DescribeVisitor } from "./visits/seen-visitor.ts";
import type { OrphanVisits } from "./visits/orphan-visits.ts";
import { OrphanVisitReports } from "./visits/orphan-visit-reports.ts";
import type { AuditStore } from "./audit/audit-store.ts";
import { AuditLog } from "./audit/audit-log.ts";
import { auditRoutes } from "./people/audit-routes.ts";
import type { OrphanVisitStore } from "./visits/orphan-visit-store.ts";
import { WorkspaceBudgets } from "./people/workspace-budgets.ts";
import { MemoryTokenBuckets } from "@linkgeo/shared/rate-limit";

export interface ShortenerDeps {
  links: LinkStore;
  /** API keys (made in main.ts on the database's store, drained at shutdown). */
  apiKeys: ApiKeys;
  /** The hosts links are served on (/admin/domains). */
  domainStore: DomainStore;
  /** The threat feeds' allow-list and the ban list (docs/abuse.md). */
  allowStore: AllowStore;
  /** Reports of harmful links (docs/abuse.md). */
  reportStore: ReportStore;
  /**
   * THREAT_RECHECK_SECONDS: the pass over existing links against the lists, built here (it holds links as this app
   * does) and handed to `started`, which starts it (main.ts) or keeps it to run by hand (a test). Absent, none.
   */
  threatRecheck?: { store: RecheckStore; everyMs: number; started: (recheck: ThreatRecheck) => void };
  /** People's accounts (/admin/users). */
  peopleStore: PeopleStore;
  /** Workspaces and their members (/workspaces). */
  workspaceStore: WorkspaceStore;
  /** The audit log (GET /workspaces/<id>/audit, GET /admin/audit). */
  auditStore: AuditStore;
  /** The events each audit log keeps; default 10,000. */
  auditKeep?: number;
  /** How a person's password is hashed (argon2id unless a test passes a cheaper one). */
  hashPassword?: (password: string) => Promise<string>;
  /** UNKNOWN_HOSTS: a redirect on a host no domain has is the default domain's (default), or a 404. */
  unknownHosts?: UnknownHosts;
  /** CREATE_ACCESS: who may make a link; default `anyone`. */
  createAccess?: CreateAccess;
  /** RATE_LIMIT_WORKSPACE's budgets (main.ts: on Redis when the shortener has it); absent, no workspace is limited. */
  workspaceBudgets?: WorkspaceBudgets;
  admins: AdminStore;
  sessions: AdminSessionStore;
  visitStore: VisitStore;
  cache: LinkCache;
  visits: VisitCounter<CountedDestination>;
  /** Visits that led nowhere (an unknown code, an expired or used-up link, a wrong password): the redirect path records them here. */
  orphans: OrphanVisits;
  /** Where they are kept, for their report (GET /admin/visits/orphans/). */
  orphanStore: OrphanVisitStore;
  clock: () => Date;
  log: Logger;
  secretKey: string;
  /** The admin session cookie Secure (HTTPS only) and named `__Host-linkgeo_admin` (SessionCookie); main.ts sets it in production. */
  secureCookies?: boolean;
  publicBaseUrl?: URL;
  /** Which hosts long URLs may not name besides loopback and this service (default: no more). */
  linkTargets?: Partial<LinkTargetRules>;
  /** THREAT_FEEDS' lists: a destination they name is refused (default: none). */
  threats?: ThreatCheck;
  redirectStatus?: RedirectStatus;
  /** PERMANENT_REDIRECT_MAX_AGE: seconds a browser may keep a link's own 301 or 308 (default 30). */
  permanentRedirectMaxAgeSeconds?: number;
  /** Who a visitor is (device, country), for the links' rules; absent, rules by device and country never match. */
  describeVisitor?: DescribeVisitor;
  accessLog?: boolean;
  readiness: { required: Record<string, ReadinessCheck>; optional?: Record<string, ReadinessCheck> };
  /** TRUSTED_PROXIES; default: this machine only. */
  trustedProxies?: readonly IpRange[];
  /** The socket's peer; default: what Bun says (tests without a socket name one). */
  peerOf?: (request: Request, server: Server | null) => string | undefined;
  accepting?: () => boolean;
  /** METRICS_PORT set: every request is recorded here. */
  metrics?: MetricsRegistry;
  generateCode?: () => string;
  /** METRICS_PORT set: link changes and database failures (shortenerMetrics). */
  observer?: AppObserver;
  /** INTERNAL_SECRET: serve the gateway's redirect batches (POST /internal/redirects) to callers that send it. */
  internalSecret?: string;
  /** IMPORT_MAX_BYTES: the largest file POST /admin/import reads (default 1 GiB). */
  importMaxBytes?: number;
}

/** No feed lists anything (THREAT_FEEDS unset); the admins' lists still apply. */
const noThreatFeeds: ThreatCheck = { listing: () => undefined };

/** The shortener's HTTP app, built from dependencies made elsewhere (main.ts or a test). */
export function createApp(deps: ShortenerDeps) {
  // The ban list, then the allow-list over the feeds: what an admin banned is listed, what one allowed is listed by no feed.
  // Each read at once, and kept current by its checks.
  const allowList = new AllowList({ store: deps.allowStore, clock: deps.clock, log: deps.log });
  const banList = new AllowList({ store: deps.allowStore, clock: deps.clock, log: deps.log, verdict: "ban" });
  void allowList.read();
  void banList.read();
  const threatCheck = banList.over(allowList.over(deps.threats ?? noThreatFeeds));
  const targets = new LinkTargets({ blockPrivate: false, blockedDomains: [], ownAddresses: [], ...deps.linkTargets }, threatCheck);
  const links = new LinkService({
    links: deps.links,
    cache: deps.cache,
    visits: deps.visits,
    targets,
    clock: deps.clock,
    generateCode: deps.generateCode ?? generateCode,
    onChange: deps.observer && ((change) => deps.observer!.linkChanged(change)),
  });
  // The database's own failures, answered 503, are counted on their way to the client.
  const translate = (error: unknown) => {
    const unavailable = storageUnavailable(error);
    if (unavailable) deps.observer?.databaseFailed();
    return unavailable;
  };
  const trustedProxies = deps.trustedProxies ?? parseIpRangeList(defaultTrustedProxies);
  const peerOf = deps.peerOf ?? ((request: Request, server: Server | null) => server?.requestIP(request)?.address);
  const clientOfRequest = (request: Request, server: Server | null) =>
    clientOf(peerOf(request, server), request.headers.get("x-forwarded-for"), trustedProxies);
  // The default domain's origin for a request: PUBLIC_BASE_URL's, or as the gateway forwarded it.
  const originOf = (request: Request, server: Server | null) => publicOrigin(request, deps.publicBaseUrl, clientOfRequest(request, server).viaTrustedProxy);
  // The host a redirect asked, which picks the link's domain: a trusted proxy's (the gateway's) X-Forwarded-Host, else Host.
  // Whether a peer is a trusted proxy, remembered per address: the gateway's few addresses ask it on every lone redirect.
  const trustedPeers = new BoundedMap<string, boolean>(256);
  const trustedPeer = (peer: string | undefined) => {
    if (peer === undefined) return false;
    let trusted = trustedPeers.get(peer);
    if (trusted === undefined) trustedPeers.set(peer, (trusted = clientOf(peer, null, trustedProxies).viaTrustedProxy));
    return trusted;
  };
  const redirectHostOf = (request: Request, server: Server | null) => {
    const forwarded = request.headers.get("x-forwarded-host");
    return (forwarded !== null && trustedPeer(peerOf(request, server)) ? forwardedOrigin(request.headers).host : undefined) ?? request.headers.get("host");
  };
  const adminLogin = new AdminLogin(deps.admins);
  const adminTokens = new AdminTokens(deps.secretKey, deps.clock);
  const adminSessions = new AdminSessions(deps.sessions, deps.clock);
  const sessionCookie = new SessionCookie(deps.secureCookies ?? false);
  const personCookie = new SessionCookie(deps.secureCookies ?? false, "person");
  const personSessions = new PersonSessions(deps.peopleStore, deps.clock);
  const people = new People({ store: deps.peopleStore, clock: deps.clock, hashPassword: deps.hashPassword });
  const workspaceInvites = new WorkspaceInvites({ store: deps.workspaceStore, people, clock: deps.clock });
  const workspaceExists = async (id: number) => (await deps.workspaceStore.find(id)) !== null;
  const budgets = deps.workspaceBudgets ?? new WorkspaceBudgets(new MemoryTokenBuckets(), undefined);
  const audit = new AuditLog({ store: deps.auditStore, clock: deps.clock, log: deps.log, keep: deps.auditKeep });
  const credentials = new CredentialResolver({
    people: personSessions,
    rolesOf: async (personId) => new Map((await deps.workspaceStore.ofPerson(personId)).map((workspace) => [workspace.id, workspace.role])),
    adminTokens,
    apiKeys: deps.apiKeys,
    sessions: adminSessions,
    cookie: sessionCookie,
    personCookie,
    ownOriginsOf: (request, server) => ownOrigins(request, deps.publicBaseUrl, clientOfRequest(request, server).viaTrustedProxy),
  });

  const domainDirectory = new DomainDirectory({
    store: deps.domainStore,
    publicHost: deps.publicBaseUrl?.hostname,
    unknownHosts: deps.unknownHosts ?? "default",
    log: deps.log,
  });
  const domains = new Domains({
    store: deps.domainStore,
    directory: domainDirectory,
    links,
    destination: (raw, ownHosts, field) => targets.destination(raw, ownHosts, field),
    clock: deps.clock,
    workspaceExists,
  });

  // ANALYTICS: the counter is given each visitor only with them on (main.ts), and the reports say whether they are.
  const analytics = deps.visits.analysing ? "on" : "off";
  if (deps.threatRecheck) {
    const recheck = new ThreatRecheck({
      store: deps.threatRecheck.store,
      links: {
        page: (after, limit) => deps.links.exportPage(after, limit),
        hold: async (code, change, heldAs) => (await links.changeHold(code, change, heldAs)) !== null,
      },
      check: threatCheck,
      refresh: async () => {
        await Promise.all([allowList.read(), banList.read()]);
      },
      everyMs: deps.threatRecheck.everyMs,
      clock: deps.clock,
      log: deps.log,
      observer: deps.observer,
    });
    deps.threatRecheck.started(recheck);
  }
  const reports = new Reports({
    store: deps.reportStore,
    links,
    revokeKey: (id) => deps.apiKeys.revoke(id),
    banList,
    clock: deps.clock,
    observer: deps.observer,
  });
  const visitReports = new VisitReports(deps.visitStore, analytics);
  const redirectStatus = deps.redirectStatus ?? 302;
  const respondToRedirect = redirectResponder({
    links,
    domains: domainDirectory,
    onRedirect: deps.observer && ((domain) => deps.observer!.redirected(domain.host ?? "default")),
    status: redirectStatus,
    permanentMaxAgeSeconds: deps.permanentRedirectMaxAgeSeconds ?? 30,
    describe: deps.describeVisitor,
    // Visits that led nowhere are analytics too: kept only with ANALYTICS on.
    orphans: deps.visits.analysing ? deps.orphans : undefined,
    threats: threatCheck,
    clock: deps.clock,
  });
  const app = serviceApp({
    log: deps.log,
    accessLog: deps.accessLog ?? false,
    errors: { translate },
    docs: {
      title: "Shortener API",
      description: 'Short URLs with exact access counts. Errors have the shape {"error": {"code", "message"}}.',
      components: { securitySchemes: securitySchemesFor(sessionCookie.name) },
    },
    readiness: deps.readiness,
    accepting: deps.accepting ?? (() => true),
    metrics: deps.metrics,
    bodies: [bulkCreateBody, redirectBatchBody, unlockFormBody, importUploadBody],
  })
    .use(adminRoutes({ login: adminLogin, tokens: adminTokens }))
    .use(sessionRoutes({ login: adminLogin, sessions: adminSessions, credentials, cookie: sessionCookie }))
    .use(apiKeyRoutes({ keys: deps.apiKeys, credentials, audit }))
    .use(
      domainRoutes({
        domains,
        credentials,
        seenFrom: (request, server) => seenFrom(request, deps.publicBaseUrl, clientOfRequest(request, server).viaTrustedProxy),
        audit,
      }),
    )
    .use(allowListRoutes({ allowList, credentials, audit }))
    .use(allowListRoutes({ allowList: banList, credentials, audit }))
    .use(reportRoutes({ reports, credentials, domains: domainDirectory, originOf, clock: deps.clock, audit }))
    .use(peopleRoutes({ people, sessions: personSessions, credentials, audit, cookie: personCookie }))
    .use(
      workspaceRoutes({
        workspaces: new Workspaces({ store: deps.workspaceStore, clock: deps.clock, links }),
        invites: workspaceInvites,
        keys: new WorkspaceKeys({ keys: deps.apiKeys, workspaceExists }),
        credentials,
        audit,
      }),
    )
    .use(inviteRoutes({ invites: workspaceInvites, credentials, audit }))
    .use(auditRoutes({ audit, credentials, workspaceExists, workspaceIdIn }))
    .use(
      linkRoutes({
        links,
        credentials,
        publicBaseUrl: deps.publicBaseUrl,
        clientOf: clientOfRequest,
        clock: deps.clock,
        domains: domainDirectory,
        createAccess: deps.createAccess ?? "anyone",
        workspaceExists,
        budgets,
        audit,
      }),
    )
    .use(
      visitRoutes({
        links,
        reports: visitReports,
        orphans: new OrphanVisitReports(deps.orphanStore, analytics),
        credentials,
        clock: deps.clock,
        domains: domainDirectory,
        originOf,
      }),
    )
    .use(
      transferRoutes({
        store: deps.links,
        links,
        reports: visitReports,
        credentials,
        clock: deps.clock,
        domains: domainDirectory,
        originOf,
        workspaceExists,
        budgets,
      }),
    )
    .use(
      importRoutes({
        importer: new Importer({
          store: deps.links,
          targets,
          clock: deps.clock,
          log: deps.log,
          // A deleted link's tombstone is cached for as long as a URL is: an imported link must not stay missing behind it.
          onInserted: async (codes) => {
            await Promise.all(codes.map((code) => deps.cache.forget(code)));
          },
        }),
        credentials,
        publicBaseUrl: deps.publicBaseUrl,
        clientOf: clientOfRequest,
        domains: domainDirectory,
        addDomain: async (host, defaultHost) => (await domains.create({ host }, { hostName: defaultHost, requestHosts: [] })).id,
        maxBytes: deps.importMaxBytes ?? defaultImportMaxBytes,
        workspaceExists,
        budgets,
        audit,
        translate,
        log: deps.log,
      }),
    )
    .use(rootRoutes({ domains: domainDirectory, hostOf: redirectHostOf, unlisted: (url) => unlistedDomainUrl(url, threatCheck) }))
    .use(redirectRoutes({ respond: respondToRedirect, status: redirectStatus, peerOf, hostOf: redirectHostOf }));
  if (deps.internalSecret === undefined) return terseBodyFailures(app);
  const withBatches = app.use(
    redirectBatchRoutes({
      respond: respondToRedirect,
      secret: deps.internalSecret,
      peerOf,
      log: deps.log,
      accessLog: deps.accessLog ?? false,
      translate,
    }),
  );
  return terseBodyFailures(withBatches);
}

export type ShortenerApp = ReturnType<typeof createApp>;
