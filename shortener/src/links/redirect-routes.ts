import { Elysia, t } from "elysia";
import { ErrorBody } from "@linkgeo/shared";
import { LinkNotFound } from "./link-errors.ts";
import type { LinkService } from "./link-service.ts";
import { notFoundPage, prefersHtml } from "./not-found-page.ts";

export type RedirectStatus = 301 | 302 | 307 | 308;

const tags = ["redirects"];

/** `GET /<short_url>/` counts and redirects; `HEAD` answers alike without counting. */
export function redirectRoutes({ links, status }: { links: LinkService; status: RedirectStatus }) {
  const redirect = (longUrl: string) =>
    new Response(null, { status, headers: { location: longUrl, "cache-control": "private, max-age=0" } });

  // Elysia sends some HEAD requests to the GET handler (app.handle, and the
  // trailing-slash form on Bun's router), so both routes look at the method.
  const answer = async ({ params, request }: { params: { short_url: string }; request: Request }) => {
    const code = params.short_url;
    try {
      return redirect(request.method === "HEAD" ? await links.peek(code) : await links.visit(code));
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
