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

  const answer = async (request: Request, code: string, resolve: (code: string) => Promise<string>) => {
    try {
      return redirect(await resolve(code));
    } catch (error) {
      if (error instanceof LinkNotFound && prefersHtml(request)) return notFoundPage(code);
      throw error;
    }
  };

  return new Elysia()
    .get("/:short_url", ({ params, request }) => answer(request, params.short_url, (code) => links.visit(code)), {
      params: t.Object({ short_url: t.String() }),
      detail: {
        summary: "Redirect to the long URL (counts one access)",
        description: `Answers ${status} with Location; an unknown code is 404, as HTML for browsers.`,
        tags,
        responses: { [status]: { description: "Redirect to long_url" }, 404: { description: "No such short URL" } },
      },
      response: { 404: ErrorBody },
    })
    .head("/:short_url", ({ params, request }) => answer(request, params.short_url, (code) => links.peek(code)), {
      params: t.Object({ short_url: t.String() }),
      detail: { summary: "Where the redirect goes, without counting an access", tags },
    });
}
