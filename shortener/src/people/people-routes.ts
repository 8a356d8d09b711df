import { ErrorBody, Unauthorized } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import type { AuditLog } from "../audit/audit-log.ts";
import type { SessionCookie } from "../auth/session-cookie.ts";
import { csrfTokenFor } from "../auth/csrf-token.ts";
import { LoginBody } from "../admins/admin-schemas.ts";
import type { CredentialResolver } from "../auth/credential-resolver.ts";
import { changeSecurity } from "../auth/security-schemes.ts";
import { refuseUnknownFields } from "../http/unknown-fields.ts";
import type { People } from "./people.ts";
import type { PersonSessions } from "./person-sessions.ts";
import { actorOf } from "../auth/actor.ts";
import { rowIdOf } from "../http/row-id.ts";
import { PersonNotFound } from "./people-errors.ts";

const tags = ["people"];
const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, ErrorBody]));

// Types only: the rules are People's, whose 400 names the field.
const NewPersonBody = t.Object(
  {
    username: t.Unknown({ description: "1-150 characters: letters, digits and @ . + - _; kept in lower case", examples: ["alice"] }),
    password: t.Unknown({ description: "8 to 1,024 characters", examples: ["a long passphrase"] }),
  },
  { additionalProperties: false },
);

const PersonView = t.Object({ id: t.Integer({ examples: [1] }), username: t.String({ examples: ["alice"] }) }, { title: "Person" });

const SignIn = t.Object(
  {
    token: t.String({ description: "Send it as Authorization: Bearer <token>; it starts with lgs_", examples: ["lgs_…"] }),
    expires_at: t.String({ format: "date-time" }),
    csrf_token: t.String({ description: "What a browser signed in by the cookie sends in X-CSRF-Token with every change" }),
  },
  { title: "PersonSignIn" },
);

const CookieSignIn = t.Object(
  {
    username: t.String(),
    expires_at: t.String({ format: "date-time" }),
    csrf_token: t.String({ description: "What a browser signed in by the cookie sends in X-CSRF-Token with every change" }),
  },
  { title: "PersonCookieSignIn" },
);

export interface PeopleRoutesDeps {
  people: People;
  sessions: PersonSessions;
  credentials: CredentialResolver;
  /** Told of each person added (the instance's log). */
  audit: AuditLog;
  /** The sign-in cookie a browser keeps (`linkgeo_person`). */
  cookie: SessionCookie;
}

/** `POST /admin/users`: an admin adds a person; `POST /login`: a person signs in (docs/people.md). */
export function peopleRoutes({ people, sessions, credentials, audit, cookie }: PeopleRoutesDeps) {
  return new Elysia()
    .post(
      "/admin/users",
      async ({ body, request, server, set }) => {
        const admin = await credentials.admin(request, server, "adding people needs an admin");
        const person = await people.create(body);
        await audit.record({ workspaceId: null, actor: actorOf(admin), action: "person.create", target: person.username });
        set.status = 201;
        return { id: person.id, username: person.username };
      },
      {
        body: NewPersonBody,
        transform: refuseUnknownFields(NewPersonBody),
        response: { 201: PersonView, ...errors(400, 401, 403, 409, 413, 415) },
        detail: {
          summary: "Add a person: an account that signs in and works in workspaces (admin)",
          description: "The username is kept in lower case and is unique in any case (409). The password is kept as an argon2id hash only.",
          tags,
          security: changeSecurity,
        },
      },
    )
    .delete(
      "/admin/users/:id",
      async ({ params, request, server, set }) => {
        const admin = await credentials.admin(request, server, "deleting people needs an admin");
        const id = rowIdOf(params.id);
        if (id === undefined) throw PersonNotFound.withId(params.id);
        const username = await people.delete(id);
        await audit.record({ workspaceId: null, actor: actorOf(admin), action: "person.delete", target: username });
        set.status = 204;
      },
      {
        params: t.Object({ id: t.String() }),
        response: { 204: t.Void(), ...errors(401, 403, 404, 409) },
        detail: {
          summary: "Delete a person (admin): their sign-ins end at once, and their memberships and the keys they made go",
          description:
            "The links they made stay with their workspaces. A person who is the only owner of a workspace is not deleted (409 naming it): " +
            "make another member an owner there, or delete the workspace, first.",
          tags,
          security: changeSecurity,
        },
      },
    )
    .post(
      "/login",
      async ({ body, request, server, set }) => {
        // A sign-in another site's page posted would sign the browser in as someone else.
        credentials.checkSameSite(request, server);
        const person = await people.check(body.username, body.password);
        // This browser's earlier sign-ins end: its own, and any another page of the host tossed in (fixation).
        for (const { token } of await credentials.livePeople(request)) await sessions.end(token);
        const signedIn = await sessions.start(person);
        // The person was removed between the password check and the session's write.
        if (!signedIn) throw Unauthorized.because("invalid username or password");
        // The answer carries a secret: no cache may keep it.
        set.headers["cache-control"] = "no-store";
        set.headers["set-cookie"] = cookie.set(signedIn.token, Math.floor(sessions.lifetimeMs / 1000));
        return { token: signedIn.token, expires_at: signedIn.expiresAt.toISOString(), csrf_token: csrfTokenFor(signedIn.token) };
      },
      {
        body: LoginBody,
        response: { 200: SignIn, ...errors(400, 401, 413, 415) },
        detail: {
          summary: "Sign in as a person: a bearer token for 12 hours, and the same sign-in as a cookie for a browser",
          description:
            "The username in any case. A wrong password and an unknown username are the same 401, in the same time. " +
            `The answer sets the HttpOnly cookie ${cookie.name}: a browser's requests with it act as this person, and every change ` +
            "(any method but GET and HEAD) also needs csrf_token in X-CSRF-Token; a sign-in posted from another site's page is 403, and " +
            "the sign-ins the browser's cookie carried end. " +
            "The gateway limits tries per client address and per username.",
          tags,
        },
      },
    )
    .get(
      "/login/session",
      async ({ request, set }) => {
        const { token, person } = await credentials.personSession(request);
        const expiresAt = await sessions.expiryOf(token);
        // Ended between the two reads.
        if (!expiresAt) throw Unauthorized.because("the sign-in is missing, ended or expired: sign in again (POST /login)");
        set.headers["cache-control"] = "no-store";
        return { username: person.username, expires_at: expiresAt.toISOString(), csrf_token: csrfTokenFor(token) };
      },
      {
        response: { 200: CookieSignIn, ...errors(401) },
        detail: { summary: "The person signed in by the browser's cookie, and its CSRF token (a page reloaded reads it here)", tags },
      },
    )
    .delete(
      "/login",
      async ({ request, route, server, set }) => {
        const token = request.headers.get("authorization")?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
        if (token === undefined && cookie.idsFrom(request.headers.get("cookie")).length > 0) {
          // Signed in by the cookie: a change, with its X-CSRF-Token; every sign-in it carried ends, and it is cleared.
          for (const ended of await credentials.personSessionsToEnd(request, server)) await sessions.end(ended);
          set.headers["set-cookie"] = cookie.cleared(route);
          set.status = 204;
          return;
        }
        if (token === undefined) throw Unauthorized.because("send Authorization: Bearer with the sign-in token to end");
        if (!(await sessions.end(token))) throw Unauthorized.because("the sign-in token is unknown, ended or expired");
        set.status = 204;
      },
      {
        response: { 204: t.Void(), ...errors(401, 403) },
        detail: {
          summary: "Sign out: end the sign-in of the bearer token (or of the browser's cookie), for good",
          description:
            "The token never works again, wherever it was copied. Signed in by the cookie, the request needs X-CSRF-Token as every change, " +
            "and the answer clears the cookie.",
          tags,
          security: [{ bearer: [] }],
        },
      },
    );
}
