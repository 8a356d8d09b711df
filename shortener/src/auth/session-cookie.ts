import { adminSessionCookieName, cookieValues } from "@linkgeo/shared";

/** The cookie that carries an admin's session id in the web app. */
export const sessionCookieName = adminSessionCookieName;

// HttpOnly: page scripts never see the id. SameSite=Strict: other sites'
// pages never make the browser send it. Secure in production (HTTPS only).

/** The Set-Cookie value that stores the session id for `maxAgeSeconds`. */
export function sessionCookie(sessionId: string, maxAgeSeconds: number, secure: boolean): string {
  return `${sessionCookieName}=${sessionId}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

/**
 * The Set-Cookie values that make the browser forget the session cookie:
 * ours (Path=/), and any `linkgeo_admin` another page of this host set on a
 * path that `routePath` lies under (`/admin`, `/admin/`, `/admin/session`
 * for sign-out), since those came with the request. One set on another path,
 * or for a parent domain, is out of reach: the request did not carry it, so
 * nothing says where it lives.
 */
export function clearedSessionCookies(routePath: string, secure: boolean): string[] {
  return pathsCarryingCookiesTo(routePath).map(
    (path) => `${sessionCookieName}=; Max-Age=0; Path=${path}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`,
  );
}

/** `/`, then every cookie path a browser would send a cookie of to `path` (RFC 6265 §5.1.4): `/a/b` gives `/`, `/a`, `/a/`, `/a/b`. */
function pathsCarryingCookiesTo(path: string): string[] {
  const segments = path.split("/").filter((segment) => segment !== "");
  const paths = ["/"];
  segments.forEach((_, i) => {
    const prefix = `/${segments.slice(0, i + 1).join("/")}`;
    paths.push(prefix);
    if (i < segments.length - 1) paths.push(`${prefix}/`);
  });
  return paths;
}

/**
 * Every value of `linkgeo_admin` in a Cookie header, in the order sent (see
 * cookieValues). A page on another port of the same host (cookies ignore
 * ports) can set its own `linkgeo_admin` on a narrower path such as
 * `/admin`, which the browser then sends before ours ("cookie tossing"). So
 * no one value is the session: AdminSessions.findAmong looks for a live one
 * among them (a session id is plain base64url, and it refuses anything else).
 */
export function sessionIdsFrom(cookieHeader: string | null): string[] {
  return cookieValues(cookieHeader, sessionCookieName);
}
