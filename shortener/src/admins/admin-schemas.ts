import { t } from "elysia";
import { noControlCharacters } from "../http/plain-text.ts";

/** What both ways to sign in take: POST /admin/login and POST /admin/session. */
export const LoginBody = t.Object({
  username: t.String({ minLength: 1, maxLength: 150, pattern: noControlCharacters }),
  password: t.String({ minLength: 1, maxLength: 1024 }),
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
