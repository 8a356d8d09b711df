import { ErrorBody } from "@linkgeo/shared";
import { Elysia } from "elysia";
import type { AdminTokens } from "../auth/admin-tokens.ts";
import type { AdminLogin } from "./admin-login.ts";
import { IssuedAdminToken, LoginBody } from "./admin-schemas.ts";

export function adminRoutes({ login, tokens }: { login: AdminLogin; tokens: AdminTokens }) {
  return new Elysia({ prefix: "/admin" }).post(
    "/login",
    async ({ body }) => {
      const issued = tokens.issue(await login.check(body.username, body.password));
      return { token: issued.token, expires_at: issued.expiresAt.toISOString() };
    },
    {
      body: LoginBody,
      response: { 200: IssuedAdminToken, 400: ErrorBody, 401: ErrorBody },
      detail: { summary: "Log in as an admin (created with `bun run createsuperuser`)", tags: ["admin"] },
    },
  );
}
