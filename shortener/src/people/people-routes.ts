import { ErrorBody, Unauthorized } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import type { AuditLog } from "../audit/audit-log.ts";
import { LoginBody } from "../admins/admin-schemas.ts";
import { adminsOr } from "../auth/callers.ts";
import type { CredentialResolver } from "../auth/credential-resolver.ts";
import { requireScope } from "../auth/scopes.ts";
import { changeSecurity } from "../auth/security-schemes.ts";
import { refuseUnknownFields } from "../http/unknown-fields.ts";
import type { People } from "./people.ts";
import type { PersonSessions } from "./person-sessions.ts";
import { actorOf } from "../auth/actor.ts";

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
  },
  { title: "PersonSignIn" },
);

export interface PeopleRoutesDeps {
  people: People;
  sessions: PersonSessions;
  credentials: CredentialResolver;
  /** Told of each person added (the instance's log). */
  audit: AuditLog;
}

/** `POST /admin/users`: an admin adds a person; `POST /login`: a person signs in (docs/people.md). */
export function peopleRoutes({ people, sessions, credentials, audit }: PeopleRoutesDeps) {
  return new Elysia()
    .post(
      "/admin/users",
      async ({ body, request, server, set }) => {
        const admin = await credentials.resolve(request, server, adminsOr("admin"));
        requireScope(admin, "admin", "adding people needs an admin");
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
    .post(
      "/login",
      async ({ body, set }) => {
        const signedIn = await sessions.start(await people.check(body.username, body.password));
        // The person was removed between the password check and the session's write.
        if (!signedIn) throw Unauthorized.because("invalid username or password");
        // The answer carries a secret: no cache may keep it.
        set.headers["cache-control"] = "no-store";
        return { token: signedIn.token, expires_at: signedIn.expiresAt.toISOString() };
      },
      {
        body: LoginBody,
        response: { 200: SignIn, ...errors(400, 401, 413, 415) },
        detail: {
          summary: "Sign in as a person: a bearer token for 12 hours",
          description:
            "The username in any case. A wrong password and an unknown username are the same 401, in the same time. " +
            "The gateway limits tries per client address and per username.",
          tags,
        },
      },
    )
    .delete(
      "/login",
      async ({ request, set }) => {
        const token = request.headers.get("authorization")?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
        if (token === undefined) throw Unauthorized.because("send Authorization: Bearer with the sign-in token to end");
        if (!(await sessions.end(token))) throw Unauthorized.because("the sign-in token is unknown, ended or expired");
        set.status = 204;
      },
      {
        response: { 204: t.Void(), ...errors(401) },
        detail: {
          summary: "Sign out: end the sign-in of the bearer token, for good",
          description: "The token never works again, wherever it was copied.",
          tags,
          security: [{ bearer: [] }],
        },
      },
    );
}
