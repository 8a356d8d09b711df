import { ErrorBody } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import type { Server } from "elysia/universal";

import { toResponse, type RedirectAnswer, type RedirectRequest, type RedirectStatus } from "./redirect-responder.ts";

const tags = ["redirects"];

export interface RedirectRoutesDeps {
  /** The one redirect answer (redirectResponder). */
  respond: (request: RedirectRequest) => Promise<RedirectAnswer>;
  /** For the API page: the status `respond` redirects with. */
  status: RedirectStatus;
  /** Analytics on: each counted visit comes with what its request said of its visitor. */
  seesVisitors: boolean;
  /** The socket's peer address. */
  peerOf: (request: Request, server: Server | null) => string | undefined;
}

/** `GET /<short_url>/` counts and redirects; `HEAD` answers alike without counting. */
export function redirectRoutes({ respond, status, seesVisitors, peerOf }: RedirectRoutesDeps) {
  // Elysia sends some HEAD requests to the GET handler (app.handle, and the
  // trailing-slash form on Bun's router), so both routes look at the method.
  const answer = ({ params, request, server }: { params: { short_url: string }; request: Request; server: Server | null }) => {
    const counted = request.method !== "HEAD";
    const headers = request.headers;
    // Taken as they are; classified once per distinct visitor when the batch is written.
    const visitor =
      counted && seesVisitors
        ? { peer: peerOf(request, server), forwardedFor: headers.get("x-forwarded-for"), userAgent: headers.get("user-agent"), referer: headers.get("referer") }
        : undefined;
    return respond({ code: params.short_url, counted, visitor, accept: headers.get("accept"), client: request.signal }).then(toResponse);
  };

  return new Elysia()
    .get("/:short_url", answer, {
      params: t.Object({ short_url: t.String() }),
      detail: {
        summary: "Redirect to the long URL (counts one access)",
        description: `Answers ${status} with Location; an unknown code is 404, as HTML for browsers.`,
        tags,
        responses: { [status]: { description: "Redirect to long_url" }, 404: { description: "No such short URL" } },
      },
      response: { 404: ErrorBody },
    })
    .head("/:short_url", answer, {
      params: t.Object({ short_url: t.String() }),
      detail: {
        summary: "Where the redirect goes, without counting an access",
        tags,
        responses: { [status]: { description: "Location: long_url, not counted" }, 404: { description: "No such short URL" } },
      },
    });
}
