import { Elysia } from "elysia";
import type { Counter, Histogram, Registry } from "prom-client";
import { declareMetrics } from "./metric-declarations.ts";

export interface HttpMetricsOptions {
  registry: Registry;
  /**
   * The route label of a request, from the template Elysia matched
   * (`/shorten/:short_url`; undefined when none did). A service whose
   * routes are one catch-all (the gateway) names its own, bounded, classes.
   */
  routeOf?: (request: Request, matched: string | undefined) => string;
}

/** Methods named as they are; any other becomes "other", so a client cannot mint label values. */
const namedMethods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Buckets for a request's seconds: from a cached redirect (about a millisecond) to the gateway's 10 s timeout. */
export const requestSecondsBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Requests by route template, method and status, their duration, and how
 * many are in flight. Label values are bounded: a route is a template or
 * "unmatched", never a path or a code. Register it first, so the requests
 * other hooks refuse (400, 405, 429) are counted too.
 */
export function httpMetrics(options: HttpMetricsOptions) {
  const declare = declareMetrics(options.registry);
  const labelNames = ["route", "method", "status"] as const;
  const requests = declare.counter("http_requests_total", "Requests answered, by route template, method and status.", labelNames);
  const duration = declare.histogram(
    "http_request_duration_seconds",
    "Time from a request's arrival to its answer, by route template, method and status.",
    requestSecondsBuckets,
    labelNames,
  );
  const inFlight = declare.gauge("http_requests_in_flight", "Requests received and not yet answered.");
  const routeOf = options.routeOf ?? ((_request: Request, matched: string | undefined) => matched ?? "unmatched");

  // One labelled child per series, made once: no label object per request.
  const series = new Map<string, { requests: Counter.Internal; duration: Histogram.Internal<(typeof labelNames)[number]> }>();
  const seriesOf = (route: string, method: string, status: string) => {
    const key = `${route} ${method} ${status}`;
    let found = series.get(key);
    if (!found) {
      found = { requests: requests.labels(route, method, status), duration: duration.labels(route, method, status) };
      series.set(key, found);
    }
    return found;
  };

  const startedAt = new WeakMap<Request, number>();
  return new Elysia({ name: "http-metrics" })
    .onRequest(({ request }) => {
      startedAt.set(request, performance.now());
      inFlight.inc();
    })
    .onAfterResponse({ as: "global" }, ({ request, route, set, responseValue }) => {
      const started = startedAt.get(request);
      // A request refused before this plugin's hook ran was never counted in flight.
      if (started === undefined) return;
      startedAt.delete(request);
      inFlight.dec();
      const method = namedMethods.has(request.method) ? request.method : "other";
      // A handler that returns a Response sets its status there, not in `set`.
      const status = String(responseValue instanceof Response ? responseValue.status : (set.status ?? 200));
      const found = seriesOf(routeOf(request, route || undefined), method, status);
      found.requests.inc();
      found.duration.observe((performance.now() - started) / 1000);
    });
}
