import { Forbidden, Unauthorized } from "@linkgeo/shared";
import type { Server } from "elysia/universal";
import { adminsOr, type Callers, credentialsWanted } from "./callers.ts";
import { requireScope } from "./scopes.ts";
import type { Credential } from "./credential.ts";
import { isForeignOrigin } from "../http/foreign-origin.ts";
import { AdminTokens } from "./admin-tokens.ts";
import { looksLikeApiKey } from "./api-key.ts";
import { looksLikeManageToken } from "./manage-token.ts";
import type { ApiKeys } from "./api-keys.ts";
import type { ActiveSession, AdminSessions } from "./admin-sessions.ts";
import type { SessionCookie } from "./session-cookie.ts";
import { isSignInTokenShaped, type SignedInPerson, type SignInTokens } from "./sign-in-token.ts";
import { csrfTokenMatches } from "./csrf-token.ts";
import type { WorkspaceRole } from "./roles.ts";

export interface CredentialResolverDeps {
  adminTokens: AdminTokens;
  apiKeys: Pick<ApiKeys, "verify">;
  sessions: AdminSessions;
  /** People's sign-ins (POST /login). */
  people: SignInTokens;
  /** A person's role in each of their workspaces, read for each request (on the primary): a session carries no rights. */
  rolesOf: (personId: number) => Promise<ReadonlyMap<number, WorkspaceRole>>;
  /** The session cookie's name and reader (its name depends on HTTPS). */
  cookie: SessionCookie;
  /** A person's sign-in cookie (POST /login), read as the admin's. */
  personCookie: SessionCookie;
  /** Every origin the request could have reached this service by (ownOrigins). */
  ownOriginsOf: (request: Request, server: Server | null) => ReadonlySet<string>;
}

/** For a bearer token of no kind's shape, such as the `null` a failed login leaves in a shell variable. */
const notAToken =
  "the bearer token is not a manage token, an admin token, an API key or a sign-in token: log in again (POST /admin/login, POST /login) or check the token";

/** How many values of the person cookie a request may carry; a browser of ours sends one. */
const maxPersonCookies = 8;

/** Methods that change nothing: the only ones a session cookie alone may authenticate. */
const safeMethods = new Set(["GET", "HEAD"]);

/**
 * Who is asking: the one owner of the rule, for every route that needs
 * credentials.
 *
 * 1. `Authorization` decides when it is present: `Bearer <token>` is an API
 *    key (`lgk_…`: unknown, revoked or expired is 401), a person's sign-in
 *    token (`lgs_…`: unknown, ended or expired is 401), an admin token (it
 *    has a dot) or a manage token (43 base64url characters); a token of
 *    none of these shapes, and anything else, is 401.
 * 2. Without it, the session cookie of a signed-in admin (SessionCookie:
 *    `linkgeo_admin`, `__Host-linkgeo_admin` over HTTPS) makes the request
 *    an admin's: the one live session among every value sent, as another
 *    page of the host may have added values of its own.
 *    Two live sessions are 401, not a choice: one of them may be another
 *    admin's, tossed to make this browser act as them (signing in again
 *    ends both). A change (any method but GET and HEAD) needs the
 *    session's X-CSRF-Token too, and may not come with an Origin of another
 *    site: 403 otherwise. A person's sign-in cookie (`linkgeo_person`,
 *    POST /login) is read the same way, with the same rules; an admin's
 *    live session and a person's together are two, a 401.
 * 3. Neither: 401, naming the credentials the route takes (`callers`).
 */
export class CredentialResolver {
  constructor(private readonly deps: CredentialResolverDeps) {}

  /** An admin, or a key with the `admin` scope: the caller of an admins' route. 401 without a credential, 403 (`refusal`) for any other. */
  async admin(request: Request, server: Server | null, refusal: string): Promise<Credential> {
    const credential = await this.resolve(request, server, adminsOr("admin"));
    requireScope(credential, "admin", refusal);
    return credential;
  }

  async resolve(request: Request, server: Server | null, callers: Callers): Promise<Credential> {
    const authorization = request.headers.get("authorization");
    if (authorization !== null) return await this.fromAuthorization(authorization);
    const cookies = request.headers.get("cookie");
    const withAdmin = this.deps.cookie.idsFrom(cookies).length > 0;
    const withPerson = this.deps.personCookie.idsFrom(cookies).length > 0;
    if (!withAdmin && !withPerson) throw Unauthorized.because(credentialsWanted(callers));
    if (!withPerson) return { kind: "admin", username: (await this.session(request, server)).username };
    const [admins, people] = await Promise.all([withAdmin ? this.liveSessions(request) : [], this.livePeople(request)]);
    if (admins.length + people.length > 1)
      throw Unauthorized.because("several sessions came with this request (another page of this host may have set one): sign in again");
    if (admins.length === 1) return { kind: "admin", username: (await this.session(request, server)).username };
    const [signedIn] = people;
    if (!signedIn) throw Unauthorized.because("the session is missing, invalid or expired: sign in again");
    if (!safeMethods.has(request.method)) this.checkPersonChange(request, server, [signedIn.token]);
    return { kind: "person", id: signedIn.person.id, username: signedIn.person.username, roles: await this.deps.rolesOf(signedIn.person.id) };
  }

  /** Whether the request carries a person's sign-in cookie (any value). */
  carriesPersonCookie(request: Request): boolean {
    return this.deps.personCookie.idsFrom(request.headers.get("cookie")).length > 0;
  }

  /**
   * The live sign-ins among the values of the request's person cookie (each
   * once), with no check: signing in ends them. Each is a read, so more
   * than `maxPersonCookies` values are a 401 rather than some of them
   * looked at: a sign-in left unread could be one of two, or one to end.
   */
  async livePeople(request: Request): Promise<Array<{ token: string; person: SignedInPerson }>> {
    const tokens = [...new Set(this.deps.personCookie.idsFrom(request.headers.get("cookie")).filter(isSignInTokenShaped))];
    if (tokens.length > maxPersonCookies) {
      throw Unauthorized.because(
        `more than ${maxPersonCookies} sign-in cookies came with this request (other pages of this host may have set them): clear this site's cookies and sign in again`,
      );
    }
    const found = await Promise.all(tokens.map(async (token) => ({ token, person: await this.deps.people.verify(token) })));
    return found.flatMap(({ token, person }) => (person ? [{ token, person }] : []));
  }

  /** The one live sign-in of the request's person cookie, for reading its CSRF token; 401 without exactly one. */
  async personSession(request: Request): Promise<{ token: string; person: SignedInPerson }> {
    const live = await this.livePeople(request);
    if (live.length > 1) throw Unauthorized.because("several sign-ins came with this request (another page of this host may have set one): sign in again");
    if (!live[0]) throw Unauthorized.because("the sign-in is missing, ended or expired: sign in again (POST /login)");
    return live[0];
  }

  /** Every live sign-in the request's person cookie carries, for signing out: a change, so 403 unless the Origin is ours and X-CSRF-Token one of theirs. */
  async personSessionsToEnd(request: Request, server: Server | null): Promise<string[]> {
    const tokens = (await this.livePeople(request)).map(({ token }) => token);
    if (tokens.length === 0) throw Unauthorized.because("the sign-in is missing, ended or expired: sign in again (POST /login)");
    this.checkPersonChange(request, server, tokens);
    return tokens;
  }

  /**
   * Who makes a link (POST /shorten/): the credential of an Authorization
   * that sends an API key, a person's sign-in token or an admin token
   * (checked: 401 when it does not verify). Anything else makes no creator
   * (undefined) unless one is `required` (CREATE_ACCESS=members) or the
   * request names a workspace (`inWorkspace`): then the request is resolved
   * as any other, a session cookie included (with its CSRF token), and a
   * manage token, which makes no one a member, is a 401. A page that sends
   * a cookie and names no workspace makes an anonymous link, as ever.
   */
  async creatorOf(request: Request, server: Server | null, callers: Callers, required: boolean, inWorkspace = false): Promise<Credential | undefined> {
    const authorization = request.headers.get("authorization");
    const token = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
    if (token !== undefined && (looksLikeApiKey(token) || isSignInTokenShaped(token) || AdminTokens.looksLikeAdminToken(token))) {
      return this.fromAuthorization(authorization!);
    }
    if (!required && !inWorkspace) return undefined;
    const credential = await this.resolve(request, server, callers);
    if (credential.kind === "manage-token") throw Unauthorized.because(credentialsWanted(callers));
    return credential;
  }

  /** The admin session of the request's cookie, with rule 2 applied; 401 without exactly one live one. */
  async session(request: Request, server: Server | null): Promise<ActiveSession> {
    const live = await this.liveSessions(request);
    if (live.length > 1)
      throw Unauthorized.because("several admin sessions came with this request (another page of this host may have set one): sign in again");
    const [session] = live;
    if (!session) throw Unauthorized.because("the admin session is missing, invalid or expired: sign in again");
    if (!safeMethods.has(request.method)) this.checkAdminChange(request, server, [session]);
    return session;
  }

  /**
   * Every live session the request's cookie carries, for signing out: all
   * of them end. 401 without one; a change, so 403 unless the Origin is ours
   * and X-CSRF-Token is that of one of them.
   */
  async sessionsToEnd(request: Request, server: Server | null): Promise<ActiveSession[]> {
    const live = await this.liveSessions(request);
    if (live.length === 0) throw Unauthorized.because("the admin session is missing, invalid or expired: sign in again");
    this.checkAdminChange(request, server, live);
    return live;
  }

  /** The live sessions among the request's cookie values, with no check: signing in ends them. */
  liveSessions(request: Request): Promise<ActiveSession[]> {
    return this.deps.sessions.liveAmong(this.deps.cookie.idsFrom(request.headers.get("cookie")));
  }

  /** Refuses a cookie-authenticated change that another site could have made the browser send. */
  checkSameSite(request: Request, server: Server | null): void {
    if (isForeignOrigin(request.headers.get("origin"), this.deps.ownOriginsOf(request, server))) {
      throw Forbidden.because("the request comes from another site (Origin): refused");
    }
  }

  /**
   * Refuses a change made with a session cookie unless it comes from no
   * other site and sends the X-CSRF-Token of one of `sessionIds` (an admin
   * session's id, a person's sign-in token): the one rule of both cookies.
   */
  private checkChange(request: Request, server: Server | null, sessionIds: readonly string[], whose: string): void {
    this.checkSameSite(request, server);
    const offered = request.headers.get("x-csrf-token");
    if (!sessionIds.some((id) => csrfTokenMatches(id, offered))) {
      throw Forbidden.because(`the X-CSRF-Token header is missing or wrong: send the csrf_token of ${whose}`);
    }
  }

  private checkAdminChange(request: Request, server: Server | null, sessions: readonly ActiveSession[]): void {
    this.checkChange(
      request,
      server,
      sessions.map((session) => session.id),
      "the admin session",
    );
  }

  private checkPersonChange(request: Request, server: Server | null, tokens: readonly string[]): void {
    this.checkChange(request, server, tokens, "the sign-in (POST /login, GET /login/session)");
  }

  private async fromAuthorization(authorization: string): Promise<Credential> {
    const match = authorization.match(/^Bearer\s+(\S+)\s*$/i);
    if (!match?.[1]) throw Unauthorized.because("send Authorization: Bearer <manage_token, admin token, API key or sign-in token>");
    const token = match[1];
    if (looksLikeApiKey(token)) {
      const key = await this.deps.apiKeys.verify(token);
      if (!key) throw Unauthorized.because("the API key is unknown, revoked or expired");
      return { kind: "api-key", id: key.id, scopes: key.scopes, workspaceId: key.workspaceId };
    }
    // By its whole shape, not its prefix: one manage token in 16.7 million begins with lgs_ too.
    if (isSignInTokenShaped(token)) {
      const person = await this.deps.people.verify(token);
      if (!person) throw Unauthorized.because("the sign-in token is unknown, ended or expired: sign in again (POST /login)");
      return { kind: "person", id: person.id, username: person.username, roles: await this.deps.rolesOf(person.id) };
    }
    if (AdminTokens.looksLikeAdminToken(token)) {
      const username = this.deps.adminTokens.verify(token);
      if (!username) throw Unauthorized.because("admin token is invalid or expired");
      return { kind: "admin", username };
    }
    // Never echo the token: it may be a real secret pasted into the wrong place.
    if (!looksLikeManageToken(token)) throw Unauthorized.because(notAToken);
    return { kind: "manage-token", token };
  }
}
