import { ErrorBody } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import { adminsOr } from "../auth/callers.ts";
import type { CredentialResolver } from "../auth/credential-resolver.ts";
import { requireScope } from "../auth/scopes.ts";
import { changeSecurity } from "../auth/security-schemes.ts";
import { refuseUnknownFields } from "../http/unknown-fields.ts";
import type { People } from "./people.ts";

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

/** `POST /admin/users`: an admin (or a key with the admin scope) adds a person (docs/people.md). */
export function peopleRoutes({ people, credentials }: { people: People; credentials: CredentialResolver }) {
  return new Elysia({ prefix: "/admin" }).post(
    "/users",
    async ({ body, request, server, set }) => {
      requireScope(await credentials.resolve(request, server, adminsOr("admin")), "admin", "adding people needs an admin");
      const person = await people.create(body);
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
  );
}
