import { type Answer, call } from "./api-call.ts";
import { sessionOf } from "./signed-in-session.ts";

/** A person signed in with this browser (docs/people.md): the `linkgeo_person` cookie, which scripts never see, and its CSRF token. */
export type PersonSession = Answer<"GET /login/session">;

/** A person's sign-in: `POST /login` (the answer's bearer token is not kept: the cookie is the browser's), `GET /login/session`, `DELETE /login`. */
export const personSession = sessionOf<PersonSession>({
  current: () => call("GET /login/session"),
  signIn: async (username, password) => {
    const { expires_at, csrf_token } = await call("POST /login", { body: { username, password } });
    return { username: username.toLowerCase(), expires_at, csrf_token };
  },
  end: (session) => call("DELETE /login", { credential: { kind: "session", csrfToken: session.csrf_token } }),
});
