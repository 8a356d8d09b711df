import { clientOfRequest, defaultTrustedProxies, parseIpRangeList, serviceApp, type Client, type Logger, type ReadinessCheck } from "@linkgeo/shared";
import type { Server } from "elysia/universal";
import { AdminLogin } from "./admins/admin-login.ts";
import { adminRoutes } from "./admins/admin-routes.ts";
import type { AdminStore } from "./admins/admin-store.ts";
import { AdminTokens } from "./auth/admin-tokens.ts";
import type { LinkCache } from "./cache/link-cache.ts";
import { linkRoutes } from "./links/link-routes.ts";
import { LinkService } from "./links/link-service.ts";
import { LinkTargets, type LinkTargetRules } from "./links/link-targets.ts";
import type { LinkStore } from "./links/link-store.ts";
import { redirectRoutes, type RedirectStatus } from "./links/redirect-routes.ts";
import { generateCode } from "./links/short-code.ts";
import { storageUnavailable } from "./storage/storage-unavailable.ts";
import { VisitReports } from "./visits/visit-reports.ts";
import { visitRoutes } from "./visits/visit-routes.ts";
import type { VisitStore } from "./visits/visit-store.ts";
import type { VisitClassifier } from "./visits/visit-classifier.ts";
import type { VisitCounter } from "./visits/visit-counter.ts";

export interface ShortenerDeps {
  links: LinkStore;
  admins: AdminStore;
  visitStore: VisitStore;
  cache: LinkCache;
  visits: VisitCounter;
  clock: () => Date;
  log: Logger;
  secretKey: string;
  publicBaseUrl?: URL;
  /** Which hosts long URLs may not name besides loopback and this service (default: no more). */
  linkTargets?: Partial<LinkTargetRules>;
  redirectStatus?: RedirectStatus;
  accessLog?: boolean;
  readiness: { required: Record<string, ReadinessCheck>; optional?: Record<string, ReadinessCheck> };
  /** Who sent a request (TRUSTED_PROXIES considered); default: trusting this machine only. */
  clientOf?: (request: Request, server: Server | null) => Client;
  /** Analytics: what a visit tells; absent (ANALYTICS=off), visits are only counted. */
  visitClassifier?: Pick<VisitClassifier, "classify">;
  accepting?: () => boolean;
  generateCode?: () => string;
}

/** The shortener's HTTP app, built from dependencies made elsewhere (main.ts or a test). */
export function createApp(deps: ShortenerDeps) {
  const links = new LinkService({
    links: deps.links,
    cache: deps.cache,
    visits: deps.visits,
    targets: new LinkTargets({ blockPrivate: false, blockedDomains: [], ownAddresses: [], ...deps.linkTargets }),
    clock: deps.clock,
    generateCode: deps.generateCode ?? generateCode,
  });
  const adminTokens = new AdminTokens(deps.secretKey, deps.clock);
  const clientOf = deps.clientOf ?? clientOfRequest(parseIpRangeList(defaultTrustedProxies));

  return serviceApp({
    log: deps.log,
    accessLog: deps.accessLog ?? false,
    errors: { translate: storageUnavailable },
    docs: {
      title: "Shortener API",
      description: "Short URLs with exact access counts. Errors have the shape {\"error\": {\"code\", \"message\"}}.",
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    },
    readiness: deps.readiness,
    accepting: deps.accepting ?? (() => true),
  })
    .use(adminRoutes({ login: new AdminLogin(deps.admins, adminTokens) }))
    .use(linkRoutes({ links, adminTokens, publicBaseUrl: deps.publicBaseUrl, clientOf }))
    .use(visitRoutes({ links, reports: new VisitReports(deps.visitStore), adminTokens, clock: deps.clock }))
    .use(redirectRoutes({ links, status: deps.redirectStatus ?? 302, clientOf, classifier: deps.visitClassifier }));
}

export type ShortenerApp = ReturnType<typeof createApp>;
