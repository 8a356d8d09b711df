import { ErrorBody, errorBody, rootAnswerHeader, type RootAnswer } from "@linkgeo/shared";
import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import { requestHostName } from "./domain-host.ts";
import type { DomainDirectory } from "./domain-directory.ts";
import { defaultDomainId } from "./domain.ts";

export interface RootRoutesDeps {
  /** Which domain the host asked is, and its root URL. */
  domains: Pick<DomainDirectory, "current" | "resolve">;
  /** The host the request asked: a trusted proxy's X-Forwarded-Host, else Host (as for a redirect). */
  hostOf: (request: Request, server: Server | null) => string | null | undefined;
  /** A domain's address as visitors may be sent to it now: null once a threat list names it (links/threat-check.ts); absent, as it is. */
  unlisted?: (url: string | null) => string | null;
}

/**
 * `GET /` (and `HEAD /`) on a domain's host: a 302 to the domain's
 * root_url when it sets one (and no threat list names it since); else, on the default domain, 204 (its root is
 * the service's home: the gateway serves its home page there); else 404 (an
 * added domain without a root URL, or a host that is no domain's). Each
 * says which in `rootAnswerHeader`. Never cached by a browser: the operator
 * may change the URL at any time. The gateway asks this for each `/` it is
 * asked, with the host forwarded.
 */
export function rootRoutes({ domains, hostOf, unlisted = (url) => url }: RootRoutesDeps) {
  const says = (answer: RootAnswer) => ({ [rootAnswerHeader]: answer, "cache-control": "private, max-age=0" });
  const answer = async ({ request, server }: { request: Request; server: Server | null }) => {
    const domain = domains.resolve(await domains.current(), requestHostName(hostOf(request, server)));
    const rootUrl = unlisted(domain?.rootUrl ?? null);
    if (rootUrl !== null) return new Response(null, { status: 302, headers: { location: rootUrl, ...says("redirect") } });
    if (domain?.id === defaultDomainId) return new Response(null, { status: 204, headers: says("home") });
    return Response.json(errorBody("not_found", "no page at the root of this host"), { status: 404, headers: says("none") });
  };
  // Not in the API's docs: through the gateway, `/` is the web app's, which asks this (docs/domains.md).
  return new Elysia().get("/", answer, { detail: { hide: true }, response: { 404: ErrorBody } }).head("/", answer, { detail: { hide: true } });
}
