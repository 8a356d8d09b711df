import { cookieValues, sessionCookieNames } from "@linkgeo/shared";
import type { GatewayRoute } from "../routing/route-table.ts";

/**
 * `headers` with only the client credentials `upstream` reads: each service
 * sees its own and no other. The shortener reads `Authorization` (manage
 * and admin tokens), its session cookies, an admin's and a person's (under
 * either of their names, every value) and the session's `X-CSRF-Token`; the geocoder reads none of
 * them, so it gets none, and no upstream gets the other cookies a browser
 * sends to this host (another application's on another port, say).
 */
export function withOwnCredentials(headers: Headers, upstream: GatewayRoute["upstream"]): Headers {
  const sessions = sessionCookieNames.flatMap((name) => cookieValues(headers.get("cookie"), name).map((value) => `${name}=${value}`));
  headers.delete("cookie");
  if (upstream !== "shortener") {
    headers.delete("authorization");
    headers.delete("x-csrf-token");
    return headers;
  }
  if (sessions.length > 0) headers.set("cookie", sessions.join("; "));
  return headers;
}
