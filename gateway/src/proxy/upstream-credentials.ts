import { adminSessionCookieName, cookieValues } from "@linkgeo/shared";
import type { GatewayRoute } from "../routing/route-table.ts";

/**
 * `headers` with only the client credentials `upstream` reads: each service
 * sees its own and no other. The shortener reads `Authorization` (manage
 * and admin tokens), its admin session cookie and the session's
 * `X-CSRF-Token`; the geocoder reads none of them, so it gets none, and no
 * upstream gets the other cookies a browser sends to this host (another
 * application's on another port, say).
 */
export function withOwnCredentials(headers: Headers, upstream: GatewayRoute["upstream"]): Headers {
  const sessions = cookieValues(headers.get("cookie"), adminSessionCookieName);
  headers.delete("cookie");
  if (upstream !== "shortener") {
    headers.delete("authorization");
    headers.delete("x-csrf-token");
    return headers;
  }
  if (sessions.length > 0) headers.set("cookie", sessions.map((value) => `${adminSessionCookieName}=${value}`).join("; "));
  return headers;
}
