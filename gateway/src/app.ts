import {
  defaultImportMaxBytes,
  errorRenderer,
  health,
  httpMetrics,
  bodyLimitOf,
  bulkCreateBody,
  jobCreationBody,
  reverseBatchBody,
  requestContext,
  requestIdOf,
  requestTarget,
  requestUrl,
  rootApp,
  RouteNotFound,
  type Client,
  type Logger,
  type MetricsRegistry,
  type ReadinessCheck,
} from "@linkgeo/shared";
import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import type { RateRule } from "./rate-limit/token-bucket.ts";
import { gatewayOwnSpec, mergedDocs, type ServiceName } from "./docs/index.ts";
import type { GatewayObserver } from "./metrics/gateway-metrics.ts";
import { batchableRedirect } from "./proxy/batchable-redirect.ts";
import { clientStillThere } from "./proxy/client-still-there.ts";
import { proxyRequest } from "./proxy/proxy-request.ts";
import { requestBody } from "./proxy/request-body.ts";
import type { RedirectBatcher } from "./proxy/redirect-batcher.ts";
import { addressDigest } from "./rate-limit/address-digest.ts";
import { ApiKeyBudgets } from "./rate-limit/api-key-budgets.ts";
import { takeGeocodePoints } from "./rate-limit/geocode-points.ts";
import { takeLoginAttempt } from "./rate-limit/login-attempts.ts";
import { rateLimit, type RateClass } from "./rate-limit/rate-limit-plugin.ts";
import type { TokenBuckets } from "./rate-limit/token-bucket.ts";
import { unlockLimits } from "./rate-limit/unlock-limits.ts";
import { routeFor, type GatewayRoute } from "./routing/route-table.ts";
import type { UpstreamPool } from "./upstreams/upstream-pool.ts";
import { apiDocsPage, linkPageHeader, pageForPerson, renderPage, visitorPageOf, webRoutes, type WebAssets } from "@linkgeo/webapp";

export interface GatewayDeps {
  upstreams: Record<ServiceName, UpstreamPool>;
  buckets: TokenBuckets;
  rateLimits: Partial<Record<RateClass, RateRule>> & { loginPerUser?: RateRule; unlockPerLink?: RateRule; badKey?: RateRule; geocodePoints?: RateRule };
  /** Who sent a request: see `clientOfRequest`. */
  clientOf: (request: Request, server: Server | null) => Client;
  /**
   * A client address or an API key as the password-try and key buckets hold it (`addressDigest`);
   * default: under a key of this process's own.
   */
  digestAddress?: (address: string) => string;
  upstreamTimeoutMs: number;
  /** IMPORT_MAX_BYTES: the largest file POST /admin/import may stream to the shortener (default 1 GiB). */
  importMaxBytes?: number;
  log: Logger;
  accessLog?: boolean;
  clock: () => Date;
  accepting?: () => boolean;
  /** More of `/ready`'s optional checks: Redis, when the rate limits are shared through it. */
  readiness?: Record<string, ReadinessCheck>;
  fetch?: typeof fetch;
  /** The web app's bundled, fingerprinted files (`buildWebAssets()`). */
  web: WebAssets;
  /** METRICS_PORT set: every request is recorded here. */
  metrics?: MetricsRegistry;
  /** METRICS_PORT set: the gateway's own metrics (gatewayMetrics). */
  observer?: GatewayObserver;
  /** Redirects to the shortener in batches (INTERNAL_SECRET set); absent: each is proxied on its own. */
  redirectBatches?: RedirectBatcher;
}

/** The bodies the gateway reads whole past 64 KiB before proxying them (an import's file is streamed instead). */
const proxiedBodies = [bulkCreateBody, reverseBatchBody, jobCreationBody];

/** The gateway: its own /health, /ready, /docs and web pages; everything the route table knows goes upstream. */
export function createApp(deps: GatewayDeps) {
  const fetcher = deps.fetch ?? fetch;
  // Both are asked twice per request (by the rate limit, then by the proxy): worked out once.
  const route = oncePerRequest((request) => {
    // requestTarget() has refused every request without a URL before any hook asks.
    const url = requestUrl(request);
    return url && routeFor(request.method, url.pathname);
  });
  const clientOf = oncePerRequest(deps.clientOf);
  const digest = deps.digestAddress ?? addressDigest(undefined);
  const { key: keyRule, badKey } = deps.rateLimits;
  const keyBudgets = keyRule && new ApiKeyBudgets({ buckets: deps.buckets, rules: { key: keyRule, badKey }, digest });

  // An upstream is ready for the gateway when one of its replicas says it is alive.
  // A link page's question (webRoutes): the link's public stats, within the upstream deadline; no answer, no verdict.
  const linkIsKnown = async (code: string): Promise<boolean | undefined> => {
    const replica = deps.upstreams.shortener.next();
    if (!replica) return undefined;
    try {
      const answer = await fetcher(`${replica}/shorten/${encodeURIComponent(code)}/stats/`, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(deps.upstreamTimeoutMs),
      });
      await answer.body?.cancel();
      return answer.status === 404 ? false : answer.ok ? true : undefined;
    } catch {
      return undefined;
    }
  };
  const upstreamAnswers = (pool: UpstreamPool) => async () => {
    const replica = pool.next();
    if (!replica) throw new Error(`no ${pool.name} replica`);
    const response = await fetcher(`${replica}/health`);
    if (!response.ok) throw new Error(`${pool.name} answered ${response.status}`);
  };

  return (
    rootApp()
      // First, so the requests the next hooks refuse (400, 405, 429) are counted too.
      .use(
        deps.metrics
          ? httpMetrics({ registry: deps.metrics, routeOf: (request, matched) => metricsRoute(route(request), matched) })
          : new Elysia({ name: "no-metrics" }),
      )
      .use(requestTarget())
      .use(requestContext({ log: deps.log, accessLog: deps.accessLog ?? false }))
      .use(errorRenderer({ log: deps.log, present: (request, answer) => pageForPerson(deps.web, request, answer, route(request)?.upstream) }))
      .use(
        health({
          required: {},
          optional: { shortener: upstreamAnswers(deps.upstreams.shortener), geocoder: upstreamAnswers(deps.upstreams.geocoder), ...deps.readiness },
          accepting: deps.accepting ?? (() => true),
        }),
      )
      .use(
        mergedDocs(
          {
            ownSpec: gatewayOwnSpec,
            fetchServiceSpec: async (service, signal) => {
              const replica = deps.upstreams[service].next();
              if (!replica) throw new Error(`no ${service} replica`);
              return (await fetcher(`${replica}/docs/json`, { signal })).json();
            },
            clock: deps.clock,
            log: deps.log,
          },
          (content) => renderPage(deps.web, apiDocsPage(content)),
        ),
      )
      .use(webRoutes(deps.web, linkIsKnown))
      .use(
        rateLimit({
          buckets: deps.buckets,
          rules: deps.rateLimits,
          // A password try spends the client's API budget too, as any POST on `/<code>` did before:
          // it bounds the buckets one address can make by trying codes that do not exist.
          classify: (request) => {
            const limit = route(request)?.limit;
            return limit === "unlock" ? "api" : limit;
          },
          clientAddressOf: (request, server) => clientOf(request, server).address,
          digestAddress: digest,
          // Only where the shortener reads the key first: anywhere else a made-up key would be a free budget.
          ownBudgetOf: keyBudgets && (async (request, client) => (route(request)?.checksKey ? keyBudgets.budgetOf(request, client) : undefined)),
          log: deps.log,
          onRefused: deps.observer && ((rateClass) => deps.observer!.rateLimited(rateClass)),
        }),
      )
      .use(
        unlockLimits({
          buckets: deps.buckets,
          rules: deps.rateLimits,
          linkOf: (request) => {
            const target = route(request);
            return target?.limit === "unlock" ? target.link : undefined;
          },
          clientAddressOf: (request, server) => clientOf(request, server).address,
          digestAddress: digest,
          log: deps.log,
          onRefused: deps.observer && (() => deps.observer!.rateLimited("unlock")),
        }),
      )
      .all(
        "*",
        async ({ request, server }) => {
          const target = route(request);
          if (!target) throw RouteNotFound.here();
          // Read (at most 64 KiB, more for a bulk create or a geocoding batch) before any upstream sees the request; an import's file is streamed.
          const body = await requestBody(request, {
            limitBytes: bodyLimitOf(request, proxiedBodies),
            importMaxBytes: deps.importMaxBytes ?? defaultImportMaxBytes,
          });
          if (target.limit === "login" && deps.rateLimits.loginPerUser && !(body instanceof ReadableStream)) {
            await takeLoginAttempt(deps.buckets, deps.rateLimits.loginPerUser, body);
          }
          const client = clientOf(request, server);
          if (target.upstream === "geocoder" && deps.rateLimits.geocodePoints && !(body instanceof ReadableStream)) {
            await takeGeocodePoints(deps.buckets, deps.rateLimits.geocodePoints, request, body, digest(client.address));
          }
          const requestId = requestIdOf(request);
          const batched =
            target.limit === "redirect" && deps.redirectBatches
              ? batchableRedirect(request, requestUrl(request)!, { requestId, address: client.address })
              : undefined;
          // A shortener that does not take batches leaves the redirect to the proxy (undefined).
          const batchAnswer = batched && (await deps.redirectBatches!.redirect(batched, request.signal));
          // A counted redirect leaves only once Bun has had its turn to close a pipelined connection.
          if (!batchAnswer && target.limit === "redirect" && request.method === "GET") await clientStillThere(request.signal);
          const response =
            batchAnswer ??
            (await proxyRequest(request, {
              pool: deps.upstreams[target.upstream],
              upstream: target.upstream,
              body,
              clientAddress: client.address,
              viaTrustedProxy: client.viaTrustedProxy,
              requestId,
              timeoutMs: deps.upstreamTimeoutMs,
              fetch: fetcher,
              observer: deps.observer,
            }));
          // Counted before the answer leaves, so the client's next request already sees it.
          if (keyBudgets && target.checksKey) await keyBudgets.answered(request, client.address, response.status);
          if (target.limit === "redirect" || target.limit === "unlock") {
            // A browser that followed (or tried to unlock) a link the shortener will not send it on from
            // gets the web app's own page for it: not found, gone, or the password form.
            const page = visitorPageOf(response);
            if (page) {
              await response.body?.cancel();
              return renderPage(deps.web, page);
            }
            response.headers.delete(linkPageHeader);
            // The shortener's own 503 (its database down) is a page too for a person who followed a link.
            if (response.status >= 502 && response.status <= 504) return pageForPerson(deps.web, request, response, target.upstream);
          }
          return response;
        },
        // The upstream reads the body, not the gateway.
        { parse: "none", detail: { hide: true } },
      )
  );
}

/**
 * A request's route as a metrics label: for what goes upstream (the one
 * catch-all route) the upstream and the rate-limit class
 * ("shortener/redirect"); for the gateway's own pages their template.
 */
function metricsRoute(route: GatewayRoute | undefined, matched: string | undefined): string {
  if (route) return `${route.upstream}/${route.limit}`;
  return matched === undefined || matched === "/*" ? "unmatched" : matched;
}

/** `compute`, remembered for each request, so several hooks can ask without paying twice. */
function oncePerRequest<A extends unknown[], T>(compute: (request: Request, ...rest: A) => T) {
  const known = new WeakMap<Request, T>();
  return (request: Request, ...rest: A): T => {
    if (known.has(request)) return known.get(request) as T;
    const value = compute(request, ...rest);
    known.set(request, value);
    return value;
  };
}
