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
  const plugin = new Elysia({ name: "request-context" })
    // onRequest runs before routing, for every request of the app that uses this.
    .onRequest(({ request }) => {
      const offered = request.headers.get("x-request-id");
      const id = offered && acceptableId.test(offered) ? offered : crypto.randomUUID();
      facts.set(request, { id, startedAt: performance.now() });
    })
    // A Response the handler built gets the header directly: putting it in
    // `set.headers` makes Elysia rebuild that Response, which halves the
    // redirect throughput. Error responses get it from the error renderer.
    .onAfterHandle({ as: "global" }, ({ request, set, responseValue }) => {
      const id = requestIdOf(request);
      if (responseValue instanceof Response) responseValue.headers.set("x-request-id", id);
      else set.headers["x-request-id"] = id;
    });
  // Registered only when wanted: even an empty hook costs every request.
  if (!options.accessLog) return plugin;
  return plugin.onAfterResponse({ as: "global" }, ({ request, set, responseValue }) => {
    const fact = facts.get(request);
    options.log.info("request", {
      request_id: fact?.id,
      method: request.method,
      path: new URL(request.url).pathname,
      // A handler that returns a Response sets its status there, not in `set`.
      status: responseValue instanceof Response ? responseValue.status : set.status,
      ms: fact ? Math.round((performance.now() - fact.startedAt) * 10) / 10 : undefined,
    });
  });
}
