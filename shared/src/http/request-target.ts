import { Elysia } from "elysia";
import { InvalidRequest, MethodNotAllowed } from "./http-error.ts";

/**
 * The methods any of the three services answers. CONNECT and TRACE are not
 * among them: a proxy that honoured CONNECT would open tunnels for anyone.
 */
export const allowedMethods: readonly string[] = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"];

const allowed = new Set(allowedMethods);

// Parsed once per request; null: the target was not usable.
const urls = new WeakMap<Request, URL | null>();

/**
 * The request's URL, or undefined when it has none worth the name. Bun makes
 * `request.url` absolute (`http://<Host><path>`) only for an origin-form
 * target with a well-formed Host; otherwise it hands over the raw target
 * (`/health` with an empty Host, `x` for `CONNECT x`,
 * `a:@10.0.0.1:9\admin` for an authority-form one), or an absolute URL that
 * does not parse (`Host: x:99999`). Only http(s) URLs with a host pass.
 */
export function requestUrl(request: Request): URL | undefined {
  let url = urls.get(request);
  if (url === undefined) {
    url = parseTarget(request.url);
    urls.set(request, url);
  }
  return url ?? undefined;
}

/** The path for a log line: the URL's, or the raw target (at most 200 characters) when it has none. Never throws. */
export function pathOf(request: Request): string {
  return requestUrl(request)?.pathname ?? request.url.slice(0, 200);
}

/**
 * Refuses, before any route or hook looks at it, a request that no route
 * can answer safely: a method outside `allowedMethods` (405 with `Allow`),
 * or a target that is not origin-form or a Host that is missing or
 * malformed (400). Register it first: later hooks may then rely on
 * `requestUrl` being defined.
 */
export function requestTarget() {
  return new Elysia({ name: "request-target" }).onRequest(({ request }) => {
    if (!allowed.has(request.method)) throw MethodNotAllowed.allowing(allowedMethods);
    if (!requestUrl(request)) throw InvalidRequest.because("the request needs a path and a valid Host header");
  });
}

function parseTarget(raw: string): URL | null {
  if (!URL.canParse(raw)) return null;
  const url = new URL(raw);
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "" ? url : null;
}
