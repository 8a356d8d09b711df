import { swagger } from "@elysiajs/swagger";
import { Elysia } from "elysia";
import { errorRenderer, type ErrorRendererOptions } from "./error-renderer.ts";
import { health, type HealthOptions } from "./health.ts";
import { jsonBody } from "./json-body.ts";
import type { Logger } from "./logger.ts";
import { requestContext } from "./request-context.ts";
import { requestTarget } from "./request-target.ts";

export interface ServiceAppOptions {
  log: Logger;
  accessLog: boolean;
  errors?: Omit<ErrorRendererOptions, "log">;
  /** The OpenAPI document's info and components, served at /docs and /docs/json. */
  docs: { title: string; description: string; components?: Record<string, unknown> };
  readiness: Omit<HealthOptions, "accepting">;
  accepting: () => boolean;
}

/**
 * What every service's app starts with: refusing unusable targets, request ids and access log, the one
 * error renderer, the JSON body parser, the API page, /health and /ready.
 */
export function serviceApp(options: ServiceAppOptions) {
  return new Elysia()
    .use(requestTarget())
    .use(requestContext({ log: options.log, accessLog: options.accessLog }))
    .use(errorRenderer({ log: options.log, ...options.errors }))
    .use(jsonBody)
    .use(
      swagger({
        path: "/docs",
        documentation: {
          info: { title: options.docs.title, version: "1.0.0", description: options.docs.description },
          ...(options.docs.components ? { components: options.docs.components } : {}),
        },
      }),
    )
    .use(health({ ...options.readiness, accepting: options.accepting }));
}
