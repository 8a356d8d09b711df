/** The OpenAPI security schemes of the shortener (the /docs page's "Authorize"), the session cookie named as it runs (SessionCookie). */
export const securitySchemesFor = (sessionCookieName: string) => ({
  bearer: {
    type: "http",
    scheme: "bearer",
    description:
      "A manage token, an admin token from POST /admin/login, an API key (lgk_…) from POST /admin/api-keys, or a person's sign-in token (lgs_…) from POST /login",
  },
  adminSession: {
    type: "apiKey",
    in: "cookie",
    name: sessionCookieName,
    description: "The web app's admin session, set by POST /admin/session (HttpOnly: a browser sends it by itself)",
  },
  csrfToken: {
    type: "apiKey",
    in: "header",
    name: "X-CSRF-Token",
    description: "The csrf_token of the admin session; every change made with the session cookie needs it",
  },
});

type SecurityRequirements = Array<Record<string, string[]>>;

/** A read: a bearer token, or the admin session cookie. */
export const readSecurity: SecurityRequirements = [{ bearer: [] }, { adminSession: [] }];

/** A change: a bearer token, or the admin session cookie with its CSRF token. */
export const changeSecurity: SecurityRequirements = [{ bearer: [] }, { adminSession: [], csrfToken: [] }];
