import { ApiError } from "./api.ts";
import { type Answer, call } from "./api-call.ts";

/** The admin signed in with this browser (username, CSRF token, expiry): the session itself is an HttpOnly cookie, never seen by scripts. */
export type AdminSession = Answer<"GET /admin/session">;

/** The current admin session, or null when nobody is signed in. */
export async function currentAdminSession(): Promise<AdminSession | null> {
  try {
    return await call("GET /admin/session");
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function signIn(username: string, password: string): Promise<AdminSession> {
  return call("POST /admin/session", { body: { username, password } });
}

/**
 * Signs this browser out: ends the session its cookie carries. A 403 says the
 * CSRF token this page holds is not that session's: since the page loaded,
 * another tab signed in again (which ended this page's session) or a page of
 * the host replaced the cookie. The page then asks whose session the cookie
 * now carries and ends that one, so Sign out never leaves one live.
 */
export async function signOut(session: AdminSession): Promise<void> {
  try {
    await endSession(session);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 403)) throw error;
    const current = await currentAdminSession();
    if (current) await endSession(current);
  }
}

function endSession(session: AdminSession): Promise<void> {
  return call("DELETE /admin/session", { credential: { kind: "session", csrfToken: session.csrf_token } });
}
