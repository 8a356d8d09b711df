import { type Answer, call } from "./api-call.ts";
import { sessionOf } from "./signed-in-session.ts";

/** The admin signed in with this browser (username, CSRF token, expiry): the session itself is an HttpOnly cookie, never seen by scripts. */
export type AdminSession = Answer<"GET /admin/session">;

/** The admin's sign-in: `POST /admin/session`, read again with `GET`, ended with `DELETE`. */
export const adminSession = sessionOf<AdminSession>({
  current: () => call("GET /admin/session"),
  signIn: (username, password) => call("POST /admin/session", { body: { username, password } }),
  end: (session) => call("DELETE /admin/session", { credential: { kind: "session", csrfToken: session.csrf_token } }),
});

/** The current admin session, or null when nobody is signed in. */
export const currentAdminSession = adminSession.current;
