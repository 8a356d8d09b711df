import { ErrorBody } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import type { ActiveSession, AdminSessions } from "../auth/admin-sessions.ts";
import type { CredentialResolver } from "../auth/credential-resolver.ts";
import type { SessionCookie } from "../auth/session-cookie.ts";
import type { AdminLogin } from "./admin-login.ts";
import { LoginBody, SignedInAdmin } from "./admin-schemas.ts";

export interface SessionRoutesDeps {
  login: AdminLogin;
  sessions: AdminSessions;
  credentials: CredentialResolver;
  cookie: SessionCookie;
}

const tags = ["admin"];
const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, ErrorBody]));

// The answers carry the CSRF token: no cache may keep them.
const noStore = "no-store";

/** `/admin/session`: the web app's sign-in by cookie (POST), who is signed in (GET), sign-out (DELETE). */
export function sessionRoutes({ login, sessions, credentials, cookie }: SessionRoutesDeps) {
  const signedIn = (session: ActiveSession) => ({ username: session.username, csrf_token: session.csrfToken, expires_at: session.expiresAt.toISOString() });

  return new Elysia({ prefix: "/admin" })
    .post(
      "/session",
      async ({ body, request, server, set }) => {
        // A login another site's page posted would sign the browser in as someone else.
        credentials.checkSameSite(request, server);
        const username = await login.check(body.username, body.password);
        // This browser's earlier sessions end: its own, and any another page of the host tossed
        // in, which would otherwise stand beside the new one (two live sessions are refused).
        await sessions.end(...(await credentials.liveSessions(request)));
        const session = await sessions.start(username);
        set.headers["set-cookie"] = cookie.set(session.id, Math.floor(sessions.lifetimeMs / 1000));
        set.headers["cache-control"] = noStore;
        return signedIn(session);
      },
      {
        body: LoginBody,
        response: { 200: SignedInAdmin, ...errors(400, 401, 403, 413, 415) },
        detail: {
          summary: "Sign in as an admin with a session cookie (the web app)",
          description:
            `Checks the password like POST /admin/login, then sets the HttpOnly cookie ${cookie.name} (12 hours). ` +
            "Requests with the cookie act as this admin; every change (any method but GET and HEAD) also needs the returned csrf_token in X-CSRF-Token.",
          tags,
        },
      },
    )
    .get(
      "/session",
      async ({ request, server, set }) => {
        const session = await credentials.session(request, server);
        set.headers["cache-control"] = noStore;
        return signedIn(session);
      },
      {
        response: { 200: SignedInAdmin, ...errors(401) },
        detail: { summary: "The admin signed in by the session cookie, and its CSRF token", tags, security: [{ adminSession: [] }] },
      },
    )
    .delete(
      "/session",
      async ({ request, route, server, set }) => {
        await sessions.end(...(await credentials.sessionsToEnd(request, server)));
        set.headers["set-cookie"] = cookie.cleared(route);
        set.status = 204;
      },
      {
        response: { 204: t.Void(), ...errors(401, 403) },
        detail: {
          summary: "Sign out: end the session for good and clear the cookie",
          description:
            "Needs X-CSRF-Token like every change made with the cookie. The old cookie value never works again, wherever it was copied. " +
            (cookie.secure
              ? `Clears ${cookie.name} (Path=/, the only place a __Host- cookie can be).`
              : `Clears ${cookie.name} at Path=/ and at every path this one lies under, where another page of the host may have set its own.`),
          tags,
          security: [{ adminSession: [], csrfToken: [] }],
        },
      },
    );
}
