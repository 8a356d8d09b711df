import { t } from "elysia";
import { noControlCharacters } from "../http/plain-text.ts";
import { passwordMaxLength, usernameMaxLength } from "./admin-limits.ts";

/** What both ways to sign in take: POST /admin/login and POST /admin/session. */
export const LoginBody = t.Object({
  username: t.String({ minLength: 1, maxLength: usernameMaxLength, pattern: noControlCharacters }),
  password: t.String({ minLength: 1, maxLength: passwordMaxLength }),
});

export const IssuedAdminToken = t.Object({ token: t.String(), expires_at: t.String({ format: "date-time" }) }, { title: "AdminSession" });

export const SignedInAdmin = t.Object(
  {
    username: t.String(),
    csrf_token: t.String({ description: "Send it as X-CSRF-Token with every change (any method but GET and HEAD) made with the cookie" }),
    expires_at: t.String({ format: "date-time" }),
  },
  { title: "AdminCookieSession" },
);
