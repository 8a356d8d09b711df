/** The cookie that carries an admin's session id in the web app. */
export const sessionCookieName = "linkgeo_admin";

// HttpOnly: page scripts never see the id. SameSite=Strict: other sites'
// pages never make the browser send it. Secure in production (HTTPS only).

/** The Set-Cookie value that stores the session id for `maxAgeSeconds`. */
export function sessionCookie(sessionId: string, maxAgeSeconds: number, secure: boolean): string {
  return `${sessionCookieName}=${sessionId}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

/** The Set-Cookie value that makes the browser forget the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${sessionCookieName}=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/**
 * The value of the first `linkgeo_admin` cookie in a Cookie header, or
 * undefined when there is none. The header is the client's: any text, any
 * length, any number of pairs; this never throws and decodes nothing (a
 * session id is plain base64url, and AdminSessions refuses anything else).
 */
export function sessionIdFrom(cookieHeader: string | null): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(";")) {
    const separator = pair.indexOf("=");
    if (separator < 0 || pair.slice(0, separator).trim() !== sessionCookieName) continue;
    return pair.slice(separator + 1).trim();
  }
  return undefined;
}
