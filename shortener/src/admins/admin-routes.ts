import { ErrorBody } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import { noControlCharacters } from "../http/plain-text.ts";
import type { AdminLogin } from "./admin-login.ts";

export function adminRoutes({ login }: { login: AdminLogin }) {
  return new Elysia({ prefix: "/admin" }).post(
    "/login",
    async ({ body }) => {
      const issued = await login.login(body.username, body.password);
      return { token: issued.token, expires_at: issued.expiresAt.toISOString() };
    },
    {
      body: t.Object({
        username: t.String({ minLength: 1, maxLength: 150, pattern: noControlCharacters }),
        password: t.String({ minLength: 1, maxLength: 1024 }),
      }),
      response: {
        200: t.Object({ token: t.String(), expires_at: t.String({ format: "date-time" }) }, { title: "AdminSession" }),
        400: ErrorBody,
        401: ErrorBody,
      },
      detail: { summary: "Log in as an admin (created with `bun run createsuperuser`)", tags: ["admin"] },
    },
  );
}
