import { Elysia } from "elysia";
import type { Logger } from "../core/logger.ts";
import { loggablePath } from "./loggable-path.ts";
import { pathOf } from "./request-target.ts";

// Keyed by the Request itself, so the id is there for the error renderer even
// when the body parser threw before any of Elysia's derive hooks ran.
const ids = new WeakMap<Request, string>();
const startTimes = new WeakMap<Request, number>();

/** What a caller's request id may be: short and plain, as it goes into a header and every log line. */
export const acceptableRequestIdPattern = "^[A-Za-z0-9._:-]{1,128}$";
const acceptableId = new RegExp(acceptableRequestIdPattern);

/** Whether an id a caller offers may be used as a request's id: it goes into a header and every log line, so it is short and plain. */
export function isAcceptableRequestId(id: string): boolean {
  return acceptableId.test(id);
}

/**
 * The request's id: the caller's `X-Request-Id` when it is sane, else a new
 * UUID. Made on first use and the same for every later caller.
 */
export function requestIdOf(request: Request): string {
  let id = ids.get(request);
  if (id === undefined) {
    const offered = request.headers.get("x-request-id");
    id = offered && isAcceptableRequestId(offered) ? offered : crypto.randomUUID();
    ids.set(request, id);
  }
  return id;
}

/**
 * Echoes `X-Request-Id` on every response (the error renderer does it for
 * errors) and, when `accessLog` is on, writes one line per request with
 * method, path, status, time and the id.
 */
export function requestContext(options: {
  log: Logger;
  accessLog: boolean /** Each line names the host the client asked (the gateway's: its domain). */;
  logHost?: boolean;
}) {
  // A Response the handler built gets the header directly: putting it in
  // `set.headers` makes Elysia rebuild that Response, which costs a redirect
  // a third of its throughput.
  const plugin = new Elysia({ name: "request-context" }).onAfterHandle({ as: "global" }, ({ request, set, responseValue }) => {
    const id = requestIdOf(request);
    if (responseValue instanceof Response) responseValue.headers.set("x-request-id", id);
    else set.headers["x-request-id"] = id;
  });
  // Registered only when wanted: even an empty hook costs every request.
  if (!options.accessLog) return plugin;
  return plugin
    .onRequest(({ request }) => {
      startTimes.set(request, performance.now());
    })
    .onAfterResponse({ as: "global" }, ({ request, set, responseValue }) => {
      const startedAt = startTimes.get(request);
      writeAccessLine(options.log, {
        requestId: requestIdOf(request),
        method: request.method,
        path: pathOf(request),
        // A handler that returns a Response sets its status there, not in `set`.
        status: responseValue instanceof Response ? responseValue.status : set.status,
        startedAt,
        // As the URL parser reads the Host: lower case, no port, nothing a client could break the line with.
        host: options.logHost ? URL.parse(request.url)?.hostname : undefined,
      });
    });
}

/** One access log line: the one shape, for a request answered alone or within the gateway's batch. */
export function writeAccessLine(
  log: Logger,
  line: { requestId: string; method: string; path: string; status: number | string | undefined; startedAt: number | undefined; host?: string },
): void {
  log.info("request", {
    request_id: line.requestId,
    method: line.method,
    // A job's id is the key to its results: never logged.
    path: loggablePath(line.path),
    status: line.status,
    ...(line.host === undefined ? {} : { host: line.host }),
    ms: line.startedAt === undefined ? undefined : Math.round((performance.now() - line.startedAt) * 10) / 10,
  });
}
