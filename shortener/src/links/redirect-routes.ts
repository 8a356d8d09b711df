import { ErrorBody } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import type { Server } from "elysia/universal";

import { LinkNotFound } from "./link-errors.ts";
import type { LinkService } from "./link-service.ts";
import { notFoundPage, prefersHtml } from "./not-found-page.ts";

export type RedirectStatus = 301 | 302 | 307 | 308;

const tags = ["redirects"];

export interface RedirectRoutesDeps {
  links: LinkService;
  status: RedirectStatus;
  /** Analytics on: each counted visit comes with what its request said of its visitor. */
  seesVisitors: boolean;
  /** The socket's peer address. */
  peerOf: (request: Request, server: Server | null) => string | undefined;
}

/** `GET /<short_url>/` counts and redirects; `HEAD` answers alike without counting. */
export function redirectRoutes({ links, status, seesVisitors, peerOf }: RedirectRoutesDeps) {
  const redirect = (longUrl: string) =>
    new Response(null, { status, headers: { location: longUrl, "cache-control": "private, max-age=0" } });

  // Elysia sends some HEAD requests to the GET handler (app.handle, and the
  // trailing-slash form on Bun's router), so both routes look at the method.
  const answer = async ({ params, request, server }: { params: { short_url: string }; request: Request; server: Server | null }) => {
    const code = params.short_url;
    try {
      if (request.method === "HEAD") return redirect(await links.peek(code));
      // Taken as they are; classified once per distinct visitor when the batch is written.
      const visitor = seesVisitors
        ? {
            peer: peerOf(request, server),
            forwardedFor: request.headers.get("x-forwarded-for"),
            userAgent: request.headers.get("user-agent"),
            referer: request.headers.get("referer"),
          }
        : undefined;
      return redirect(await links.visit(code, visitor));
    } catch (error) {
      if (error instanceof LinkNotFound && prefersHtml(request)) return notFoundPage(code);
      throw error;
    }
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
