import { ApiError } from "./api.ts";

/** A browser's sign-in as a page knows it: whose, until when, and the CSRF token its changes send (the session itself is an HttpOnly cookie). */
export interface BrowserSession {
  username: string;
  expires_at: string;
  csrf_token: string;
}

/** The three calls of one kind of sign-in (the admin's, a person's). */
export interface SessionCalls<S extends BrowserSession> {
  current(): Promise<S>;
  signIn(username: string, password: string): Promise<S>;
  end(session: S): Promise<void>;
}

export interface SessionOf<S extends BrowserSession> {
  /** The session the browser's cookie carries, or null when nobody is signed in. */
  current(): Promise<S | null>;
  signIn(username: string, password: string): Promise<S>;
  /**
   * Signs this browser out: ends the session its cookie carries. A 403
   * says the CSRF token this page holds is not that session's: since the
   * page loaded, another tab signed in again (which ended this page's
   * session) or a page of the host replaced the cookie. The page then asks
   * whose session the cookie now carries and ends that one, so Sign out
   * never leaves one live.
   */
  signOut(session: S): Promise<void>;
}

/** One kind of sign-in's rules for a page, over its calls: the admin's (admin-session.ts) and a person's (person-session.ts) are the same. */
export function sessionOf<S extends BrowserSession>(calls: SessionCalls<S>): SessionOf<S> {
  async function current(): Promise<S | null> {
    try {
      return await calls.current();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  }
  return {
    current,
    signIn: calls.signIn,
    async signOut(session) {
      try {
        await calls.end(session);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 403)) throw error;
        const now = await current();
        if (now) await calls.end(now);
      }
    },
  };
}
