import { api, ApiError } from "./api.ts";

/** The admin signed in with this browser: the session itself is an HttpOnly cookie, never seen by scripts. */
export interface AdminSession {
  username: string;
  csrf_token: string;
  expires_at: string;
}

/** The current admin session, or null when nobody is signed in. */
export async function currentAdminSession(): Promise<AdminSession | null> {
  try {
    return await api<AdminSession>("/admin/session");
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function signIn(username: string, password: string): Promise<AdminSession> {
  return api<AdminSession>("/admin/session", { method: "POST", body: { username, password } });
}

export function signOut(session: AdminSession): Promise<void> {
  return api<void>("/admin/session", { method: "DELETE", credential: { kind: "session", csrfToken: session.csrf_token } });
}
