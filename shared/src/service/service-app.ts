import { Elysia } from "elysia";
import { docsRoutes } from "../docs/docs-routes.ts";
import { serviceSpec, type ServiceSpecInfo } from "../docs/service-spec.ts";
import { errorRenderer, type ErrorRendererOptions } from "../http/error-renderer.ts";
import { health, type HealthOptions } from "./health.ts";
import { jsonBody, type SpecialBody } from "../http/json-body.ts";
import type { Logger } from "../core/logger.ts";
import type { Registry } from "prom-client";
import { httpMetrics } from "../metrics/http-metrics.ts";
import { requestContext } from "../http/request-context.ts";
import { requestTarget } from "../http/request-target.ts";
import { rootApp } from "../http/root-app.ts";

export interface ServiceAppOptions {
  log: Logger;
  accessLog: boolean;
  errors?: Omit<ErrorRendererOptions, "log">;
  /** The OpenAPI document's info and components: /docs/json, shown on the page at /docs. */
  docs: ServiceSpecInfo;
  readiness: Omit<HealthOptions, "accepting">;
  accepting: () => boolean;
  /** The bodies of the service's routes that are bigger than every other, or that their routes read themselves. */
  bodies?: readonly SpecialBody[];
  /** METRICS_PORT set: requests are recorded here (served by serveMetrics on that port). */
  metrics?: Registry;
}

/**
 * What every service's app starts with: refusing unusable targets, request ids and access log, the one
 * error renderer, the JSON body parser, the API page, /health and /ready.
 */
export function serviceApp(options: ServiceAppOptions) {
  const app = rootApp()
    // First, so the requests the next hooks refuse are counted too; registered only when wanted.
    .use(options.metrics ? httpMetrics({ registry: options.metrics }) : new Elysia({ name: "no-metrics" }))
    .use(requestTarget())
    .use(requestContext({ log: options.log, accessLog: options.accessLog }))
    .use(errorRenderer({ log: options.log, ...options.errors }))
    .use(jsonBody(options.bodies));
  // The spec is generated from `app` when first asked, so it covers the routes the service adds after this.
  return app
    .use(docsRoutes({ title: options.docs.title, spec: serviceSpec(app, options.docs) }))
    .use(health({ ...options.readiness, accepting: options.accepting }));
}
