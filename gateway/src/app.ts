import {
  defaultImportMaxBytes,
  errorRenderer,
  health,
  httpMetrics,
  requestContext,
  requestTarget,
  requestUrl,
  rootApp,
  RouteNotFound,
  type Client,
  type Logger,
  type MetricsRegistry,
  type ReadinessCheck,
} from "@linkgeo/shared";
import { apiDocsPage, present, renderPage, webRoutes, type AnswerSource, type WebAssets } from "@linkgeo/webapp";
import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import { admission, type RateRules } from "./admission/admission.ts";
import { gatewayOwnSpec, mergedDocs, type ServiceName } from "./docs/index.ts";
import type { GatewayObserver } from "./metrics/gateway-metrics.ts";
import { forwarding } from "./proxy/forward.ts";
import { pageQuestions } from "./proxy/page-questions.ts";
import type { RedirectBatcher } from "./proxy/redirect-batcher.ts";
import { addressDigest } from "./rate-limit/address-digest.ts";
import { withRateLimitHeaders } from "@linkgeo/shared/rate-limit";
import type { TokenBuckets } from "@linkgeo/shared/rate-limit";
import { routeFor, type GatewayRoute } from "./routing/route-table.ts";
import type { UpstreamPool } from "./upstreams/upstream-pool.ts";

export interface GatewayDeps {
  upstreams: Record<ServiceName, UpstreamPool>;
  buckets: TokenBuckets;
  rateLimits: RateRules;
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

/**
 * The gateway: its own /health, /ready, /docs and web pages; a request the
 * route table knows walks three steps: admit (every budget it spends, its
 * body read), forward (batched or proxied to its upstream), present (the
 * web app's page for a person, where there is one).
 */
export function createApp(deps: GatewayDeps) {
  const fetcher = deps.fetch ?? fetch;
  // Asked by the metrics, the error renderer and the handler: worked out once.
  const routeOf = oncePerRequest((request) => {
    // requestTarget() has refused every request without a URL before any hook asks.
    const url = requestUrl(request);
    return url && routeFor(request.method, url.pathname);
  });
  const admit = admission({
    buckets: deps.buckets,
    rules: deps.rateLimits,
    digest: deps.digestAddress ?? addressDigest(undefined),
    importMaxBytes: deps.importMaxBytes ?? defaultImportMaxBytes,
    log: deps.log,
    observer: deps.observer,
  });
  const forward = forwarding({
    upstreams: deps.upstreams,
    redirectBatches: deps.redirectBatches,
    timeoutMs: deps.upstreamTimeoutMs,
    fetch: fetcher,
    observer: deps.observer,
  });
  const sourceOf = (from: AnswerSource["from"], route: GatewayRoute | undefined): AnswerSource => ({ from, upstream: route?.upstream, limit: route?.limit });

  // What a page for a person asks the shortener before it is served: a link's existence, a host's root.
  const questions = pageQuestions({ shortener: deps.upstreams.shortener, clientOf: deps.clientOf, timeoutMs: deps.upstreamTimeoutMs, fetch: fetcher });
  // An upstream is ready for the gateway when one of its replicas says it is alive.
  const upstreamAnswers = (pool: UpstreamPool) => async () => {
    const replica = pool.next();
    if (!replica) throw new Error(`no ${pool.name} replica`);
    const response = await fetcher(`${replica}/health`);
    if (!response.ok) throw new Error(`${pool.name} answered ${response.status}`);
  };

  return (
    rootApp()
      // First, so the requests refused before any handler (400, 405) are counted too.
      .use(
        deps.metrics
          ? httpMetrics({ registry: deps.metrics, routeOf: (request, matched) => metricsRoute(routeOf(request), matched) })
          : new Elysia({ name: "no-metrics" }),
      )
      .use(requestTarget())
      .use(requestContext({ log: deps.log, accessLog: deps.accessLog ?? false, logHost: true }))
      .use(errorRenderer({ log: deps.log, present: (request, answer) => present(deps.web, request, answer, sourceOf("gateway", routeOf(request))) }))
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
      .use(webRoutes(deps.web, questions))
      .all(
        "*",
        async ({ request, server, set }) => {
          const route = routeOf(request);
          if (!route) throw RouteNotFound.here();
          const client = deps.clientOf(request, server);
          // RateLimit-* go into `set.headers` as they are decided: an answer that fails later (413, 502) carries them too.
          const admitted = await admit(request, route, client, set.headers);
          const answer = await forward(request, route, client, admitted.body);
          // Counted before the answer leaves, so the client's next request already sees it.
          await admitted.answered(answer);
          return withRateLimitHeaders(present(deps.web, request, answer, sourceOf("upstream", route)), set.headers);
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
