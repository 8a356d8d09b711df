import { Forbidden, Unauthorized } from "@linkgeo/shared";
import type { Server } from "elysia/universal";
import type { Credential } from "./credential.ts";
import { isForeignOrigin } from "../http/foreign-origin.ts";
import { AdminTokens } from "./admin-tokens.ts";
import type { ActiveSession, AdminSessions } from "./admin-sessions.ts";
import { sessionIdsFrom } from "./session-cookie.ts";

export interface CredentialResolverDeps {
  adminTokens: AdminTokens;
  sessions: AdminSessions;
  /** Every origin the request could have reached this service by (ownOrigins). */
  ownOriginsOf: (request: Request, server: Server | null) => ReadonlySet<string>;
}

/** Methods that change nothing: the only ones a session cookie alone may authenticate. */
const safeMethods = new Set(["GET", "HEAD"]);

/**
 * Who is asking: the one owner of the rule, for every route that needs
 * credentials.
 *
 * 1. `Authorization` decides when it is present: `Bearer <token>` is an
 *    admin token (it has a dot) or else a manage token; anything else is 401.
 * 2. Without it, the `linkgeo_admin` session cookie of a signed-in admin
 *    makes the request an admin's: a live session among every value sent,
 *    as another page of the host may have added its own. A change (any
 *    method but GET and HEAD) needs the session's X-CSRF-Token too, and may
 *    not come with an Origin of another site: 403 otherwise.
 * 3. Neither: 401.
 */
export class CredentialResolver {
  constructor(private readonly deps: CredentialResolverDeps) {}

  async resolve(request: Request, server: Server | null): Promise<Credential> {
    const authorization = request.headers.get("authorization");
    if (authorization !== null) return this.fromAuthorization(authorization);
    if (sessionIdsFrom(request.headers.get("cookie")).length === 0) {
      throw Unauthorized.because("send Authorization: Bearer <manage_token or admin token>, or sign in as an admin");
    }
    const session = await this.session(request, server);
    return { kind: "admin", username: session.username };
  }

  /** The admin session of the request's cookie, with rule 2 applied; 401 without a live one. */
  async session(request: Request, server: Server | null): Promise<ActiveSession> {
    const session = await this.deps.sessions.findAmong(sessionIdsFrom(request.headers.get("cookie")));
    if (!session) throw Unauthorized.because("the admin session is missing, invalid or expired: sign in again");
    if (!safeMethods.has(request.method)) this.checkChange(request, server, session);
    return session;
  }

  /** Refuses a cookie-authenticated change that another site could have made the browser send. */
  checkSameSite(request: Request, server: Server | null): void {
    if (isForeignOrigin(request.headers.get("origin"), this.deps.ownOriginsOf(request, server))) {
      throw Forbidden.because("the request comes from another site (Origin): refused");
    }
  }

  private checkChange(request: Request, server: Server | null, session: ActiveSession): void {
    this.checkSameSite(request, server);
    if (!this.deps.sessions.csrfTokenMatches(session, request.headers.get("x-csrf-token"))) {
      throw Forbidden.because("the X-CSRF-Token header is missing or wrong: send the csrf_token of the admin session");
    }
  }

  private fromAuthorization(authorization: string): Credential {
    const match = authorization.match(/^Bearer\s+(\S+)\s*$/i);
    if (!match?.[1]) throw Unauthorized.because("send Authorization: Bearer <manage_token or admin token>");
    const token = match[1];
    if (!AdminTokens.looksLikeAdminToken(token)) return { kind: "manage-token", token };
    const username = this.deps.adminTokens.verify(token);
    if (!username) throw Unauthorized.because("admin token is invalid or expired");
    return { kind: "admin", username };
  }
}
