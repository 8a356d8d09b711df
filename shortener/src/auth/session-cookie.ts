import {
  adminSessionCookieName,
  cookieValues,
  hostOnlyAdminSessionCookieName,
  hostOnlyPersonSessionCookieName,
  personSessionCookieName,
} from "@linkgeo/shared";

/** Whose session a cookie carries: an admin's (`/admin/session`) or a person's (`POST /login`). */
export type SessionKind = "admin" | "person";

const names: Record<SessionKind, { plain: string; hostOnly: string }> = {
  admin: { plain: adminSessionCookieName, hostOnly: hostOnlyAdminSessionCookieName },
  person: { plain: personSessionCookieName, hostOnly: hostOnlyPersonSessionCookieName },
};

/**
 * The cookie that carries an admin's session id in the web app (or, of
 * kind `person`, a person's sign-in token, `linkgeo_person`): its name,
 * the Set-Cookie values that store and clear it, and how a request's values
 * are read. HttpOnly: page scripts never see the id. SameSite=Strict: other
 * sites' pages never make the browser send it.
 *
 * `secure` (production, HTTPS): `Secure`, and named `__Host-linkgeo_admin`.
 * Browsers keep a `__Host-` cookie only when it is Secure, has Path=/ and no
 * Domain, so a page on another port or a sibling subdomain cannot set one
 * beside ours ("cookie tossing"): it can only replace ours, from an HTTPS
 * page of this very host. A plain `linkgeo_admin`, which any page of the host
 * can set on any path, is then never read. Over plain HTTP (development) the
 * cookie is `linkgeo_admin`, and several values may come: every one is read
 * (AdminSessions.liveAmong looks for a live one among them).
 */
export class SessionCookie {
  readonly name: string;

  constructor(
    readonly secure: boolean,
    kind: SessionKind = "admin",
  ) {
    this.name = secure ? names[kind].hostOnly : names[kind].plain;
  }

  /** The Set-Cookie value that stores the session id for `maxAgeSeconds`. */
  set(sessionId: string, maxAgeSeconds: number): string {
    return `${this.name}=${sessionId}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}${this.attributesAfter()}`;
  }

  /**
   * The Set-Cookie values that make the browser forget the session cookie.
   * Secure: ours, the only `__Host-` one there can be (Path=/). Otherwise
   * ours (Path=/) and any `linkgeo_admin` another page of this host set on a
   * path that `routePath` lies under (`/admin`, `/admin/`, `/admin/session`
   * for sign-out), since those came with the request. One set on another
   * path, or for a parent domain, is out of reach: the request did not carry
   * it, so nothing says where it lives.
   */
  cleared(routePath: string): string[] {
    const paths = this.secure ? ["/"] : pathsCarryingCookiesTo(routePath);
    return paths.map((path) => `${this.name}=; Max-Age=0; Path=${path}; HttpOnly; SameSite=Strict${this.attributesAfter()}`);
  }

  /**
   * Every value of the cookie in a Cookie header, in the order sent (see
   * cookieValues). Over plain HTTP a page on another port of the same host
   * (cookies ignore ports) can set its own `linkgeo_admin` on a narrower
   * path such as `/admin`, which the browser then sends before ours. So no
   * one value is the session: AdminSessions.liveAmong looks for a live one
   * among them (a session id is plain base64url, and it refuses anything else).
   */
  idsFrom(cookieHeader: string | null): string[] {
    return cookieValues(cookieHeader, this.name);
  }

  private attributesAfter(): string {
    return this.secure ? "; Secure" : "";
  }
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
