import { Elysia } from "elysia";
import type { Logger } from "./logger.ts";

interface RequestFacts {
  id: string;
  startedAt: number;
}

// Keyed by the Request itself so the id is there even when the body parser
// throws before Elysia's derive hooks run.
const facts = new WeakMap<Request, RequestFacts>();

const acceptableId = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the caller's `X-Request-Id` when it is sane, else a new UUID. */
export function requestIdOf(request: Request): string {
  return facts.get(request)?.id ?? "-";
}

/**
 * Takes or makes `X-Request-Id`, echoes it on every response (errors too) and
 * writes one access-log line per request with method, path, status and time.
 */
export function requestContext(options: { log: Logger; accessLog: boolean }) {
  return new Elysia({ name: "request-context" })
    // onRequest runs before routing, for every request of the app that uses this.
    .onRequest(({ request, set }) => {
      const offered = request.headers.get("x-request-id");
      const id = offered && acceptableId.test(offered) ? offered : crypto.randomUUID();
      facts.set(request, { id, startedAt: performance.now() });
      set.headers["x-request-id"] = id;
    })
    .onAfterResponse({ as: "global" }, ({ request, set }) => {
      if (!options.accessLog) return;
      const fact = facts.get(request);
      options.log.info("request", {
        request_id: fact?.id,
        method: request.method,
        path: new URL(request.url).pathname,
        status: set.status,
        ms: fact ? Math.round((performance.now() - fact.startedAt) * 10) / 10 : undefined,
      });
    });
}
