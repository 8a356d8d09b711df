import { ErrorBody } from "@linkgeo/shared";
import type { OpenApiDocument } from "./openapi-document.ts";

/** Whatever else a route may answer (a 500, a 429 from rate limiting) has the API's error shape. */
const unexpected = {
  description: 'Any other status: the error body {"error": {"code", "message"}}',
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
};

const json = (description: string, schema: Record<string, unknown>) => ({
  description,
  content: { "application/json": { schema } },
});

/** The body of /ready, as shared/src/service/health.ts answers it. */
const readiness = {
  type: "object",
  required: ["status", "checks"],
  properties: {
    status: { type: "string", enum: ["ready", "degraded", "unavailable"] },
    checks: { type: "object", additionalProperties: { type: "string" }, example: { shortener: "ok", geocoder: "ok", redis: "ok" } },
  },
};

/**
 * The routes the gateway answers itself (/health, /ready, /docs, /docs/json),
 * written out by hand: the gateway has no OpenAPI generator of its own, and
 * these four change rarely. The error schema is the shared ErrorBody, so the
 * documented shape is the one the error renderer sends.
 */
export function gatewayOwnSpec(): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: {
      title: "linkgeo gateway",
      version: "1.0.0",
      description: [
        "The gateway in front of the shortener and the geocoder; every path below is reached through it.",
        "",
        'Every non-2xx JSON response has the shape `{"error": {"code", "message"}}` (the geocoder wraps it in its',
        '`{"success": false, "data": [], "error": …}` envelope). Besides the responses listed for each operation,',
        "the gateway itself may answer `429 rate_limited` (with `Retry-After`), `502 upstream_unavailable` and",
        "`504 upstream_timeout`.",
      ].join("\n"),
    },
    tags: [{ name: "operations", description: "Liveness, readiness and this page, answered by the gateway itself" }],
    paths: {
      "/health": {
        get: {
          tags: ["operations"],
          summary: "Liveness: the gateway process answers",
          operationId: "getHealth",
          responses: {
            "200": json("The process is alive", {
              type: "object",
              required: ["status"],
              properties: { status: { type: "string", enum: ["ok"] } },
            }),
            default: unexpected,
          },
        },
      },
      "/ready": {
        get: {
          tags: ["operations"],
          summary: "Readiness: the gateway's dependencies answer (503 when a required one does not)",
          operationId: "getReady",
          responses: {
            "200": json("Ready, or degraded when only an optional dependency fails", readiness),
            "503": json("Not taking traffic: a required dependency fails, or shutdown has begun", readiness),
            default: unexpected,
          },
        },
      },
      "/docs": {
        get: {
          tags: ["operations"],
          summary: "This page",
          operationId: "getDocs",
          responses: {
            "200": { description: "The interactive API page", content: { "text/html": { schema: { type: "string" } } } },
            default: unexpected,
          },
        },
      },
      "/docs/json": {
        get: {
          tags: ["operations"],
          summary: "This API description: the gateway's routes and both services', merged",
          operationId: "getDocsJson",
          responses: {
            "200": json("An OpenAPI 3 document", { type: "object" }),
            default: unexpected,
          },
        },
      },
    },
    components: {
      // JSON round trip: drops TypeBox's symbol keys so the schema is plain data.
      schemas: { Error: JSON.parse(JSON.stringify(ErrorBody)) as Record<string, unknown> },
    },
  };
}
