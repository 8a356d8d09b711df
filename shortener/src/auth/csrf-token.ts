import { timingSafeEqual } from "node:crypto";

/**
 * The CSRF token of an admin session: SHA-256 over "csrf:" and the session
 * id, base64url. Only a page that read it from the session endpoints can
 * send it back in X-CSRF-Token; a page on another site can make the browser
 * send the cookie, but can read neither the cookie (HttpOnly) nor this.
 *
 * Derived from the session id alone, not keyed with ELYSIA_SECRET_KEY: the
 * session lives in the database, so its token must not depend on which
 * process answers. Keyed, a replica started with another key (each makes a
 * random one when the variable is unset) or a restart in between refused
 * the token the page had read: sign-out answered 403 and the session stayed
 * live. A key adds nothing here: whoever holds the id can read the token
 * from GET /admin/session anyway, and the token does not reveal the id. The
 * "csrf:" prefix keeps it apart from the id's stored hash (its bare SHA-256).
 */
export function csrfTokenFor(sessionId: string): string {
  return new Bun.CryptoHasher("sha256").update(`csrf:${sessionId}`).digest("base64url");
}

/** Whether `offered` (the X-CSRF-Token header, maybe absent) is the session's token, compared in constant time. */
export function csrfTokenMatches(sessionId: string, offered: string | null): boolean {
  if (offered === null) return false;
  const expected = Buffer.from(csrfTokenFor(sessionId));
  const given = Buffer.from(offered);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
