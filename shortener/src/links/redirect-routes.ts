import { ErrorBody, isUnlockForm, readBodyLimited, unlockFormBytes } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import type { Server } from "elysia/universal";
import { parsePassword, type RedirectStatus } from "./link-options.ts";
import { toResponse, type RedirectAnswer, type RedirectRequest } from "./redirect-responder.ts";

const tags = ["redirects"];

export interface RedirectRoutesDeps {
  /** The one redirect answer (redirectResponder). */
  respond: (request: RedirectRequest) => Promise<RedirectAnswer>;
  /** For the API page: the status `respond` redirects with. */
  status: RedirectStatus;
  /** The socket's peer address. */
  peerOf: (request: Request, server: Server | null) => string | undefined;
  /** The host the request asked: a trusted proxy's X-Forwarded-Host, else Host. */
  hostOf: (request: Request, server: Server | null) => string | null | undefined;
}

type Context = { params: { short_url: string }; request: Request; server: Server | null };

/**
 * `GET /<short_url>/` counts and redirects; `HEAD` answers alike without
 * counting; `POST` with the link's password (an HTML form's or JSON's
 * `password` field) unlocks a protected link: the redirect, counted.
 */
export function redirectRoutes({ respond, status, peerOf, hostOf }: RedirectRoutesDeps) {
  // Taken as they are; classified once per distinct visitor when the batch is written, and for a link's rules.
  const redirectRequest = ({ params, request, server }: Context, password?: string): RedirectRequest => {
    const headers = request.headers;
    const query = request.url.indexOf("?");
    return {
      code: params.short_url,
      host: hostOf(request, server),
      counted: request.method !== "HEAD",
      visitor: {
        peer: peerOf(request, server),
        forwardedFor: headers.get("x-forwarded-for"),
        userAgent: headers.get("user-agent"),
        referer: headers.get("referer"),
      },
      accept: headers.get("accept"),
      acceptLanguage: headers.get("accept-language"),
      query: query === -1 ? "" : request.url.slice(query + 1),
      password,
      client: request.signal,
    };
  };
  // Elysia sends some HEAD requests to the GET handler (app.handle, and the
  // trailing-slash form on Bun's router), so the request's method decides.
  // Each handler names what it reads: Elysia infers from a handler's source what
  // to prepare, and a context handed on whole makes it prepare everything
  // (the cookies and the query parsed) for every redirect.
  const answer = ({ params, request, server }: Context) => respond(redirectRequest({ params, request, server })).then(toResponse);
  const unlock = ({ params, request, server, body }: Context & { body: { password: unknown } }) =>
    respond(redirectRequest({ params, request, server }, parsePassword(body.password))).then(toResponse);

  return new Elysia()
    .get("/:short_url", answer, {
      params: t.Object({ short_url: t.String() }),
      detail: {
        summary: "Redirect to the long URL (counts one access)",
        description:
          `Answers ${status} (or the link's own redirect_status) with Location: the long URL, or the first of the link's rules that ` +
          "matches the visitor, with the query string added when the link has forward_query. An unknown code is 404; an expired or " +
          "used-up link is 410, or a 302 to its expired_url; a password-protected link is 401 (an unlock form for browsers). " +
          "Pages for browsers are HTML.",
        tags,
        responses: {
          [status]: { description: "Redirect to the destination" },
          401: { description: "The link has a password: POST it here" },
          404: { description: "No such short URL" },
          410: { description: "The link has expired or used up its visits" },
        },
      },
      response: { 401: ErrorBody, 404: ErrorBody, 410: ErrorBody },
    })
    .head("/:short_url", answer, {
      params: t.Object({ short_url: t.String() }),
      detail: {
        summary: "Where the redirect goes, without counting an access",
        description: "A password-protected link answers 401 here too: HEAD never reveals its destination.",
        tags,
        responses: { [status]: { description: "Location: the destination, not counted" }, 404: { description: "No such short URL" } },
      },
    })
    .post("/:short_url", unlock, {
      params: t.Object({ short_url: t.String() }),
      body: t.Object({ password: t.Unknown({ description: "The link's password (8-128 characters)" }) }),
      // An HTML form's body (the JSON parser leaves it alone: isUnlockForm), read here under its own small limit.
      parse: async ({ request }) => {
        if (!isUnlockForm(request)) return undefined;
        const bytes = await readBodyLimited(request, unlockFormBytes);
        const form = new URLSearchParams(bytes ? new TextDecoder().decode(bytes) : "");
        return { password: form.get("password") ?? undefined };
      },
      detail: {
        summary: "Unlock a password-protected link: the redirect, counted",
        description:
          "Send the password as an HTML form does (application/x-www-form-urlencoded, field password) or as JSON. " +
          "Right: the redirect, counted as a visit. Wrong: 401 (the form again, for browsers). Tries are limited per link and " +
          "client, and per link, by the gateway.",
        tags,
        responses: {
          [status]: { description: "Redirect to the destination" },
          401: { description: "Wrong password" },
          404: { description: "No such short URL" },
          410: { description: "The link has expired or used up its visits" },
        },
      },
      response: { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 410: ErrorBody },
    });
}
