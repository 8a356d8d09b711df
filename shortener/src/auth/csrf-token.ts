import { timingSafeEqual } from "node:crypto";

/**
 * The CSRF token of an admin session: HMAC-SHA256 over "csrf:" and the
 * session id, keyed with ELYSIA_SECRET_KEY, base64url. Only a page that read
 * it from the session endpoints can send it back in X-CSRF-Token; a page on
 * another site can make the browser send the cookie, but cannot read this.
 * Derived, not stored: every replica computes the same token. The "csrf:"
 * prefix keeps it from ever being a signature the admin tokens would accept.
 */
export function csrfTokenFor(secret: string, sessionId: string): string {
  return new Bun.CryptoHasher("sha256", secret).update(`csrf:${sessionId}`).digest("base64url");
}

/** Whether `offered` (the X-CSRF-Token header, maybe absent) is the session's token, compared in constant time. */
export function csrfTokenMatches(secret: string, sessionId: string, offered: string | null): boolean {
  if (offered === null) return false;
  const expected = Buffer.from(csrfTokenFor(secret, sessionId));
  const given = Buffer.from(offered);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
