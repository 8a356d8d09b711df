/**
 * Paths the gateway and the services route themselves, so no alias may take
 * them. Compared without regard to case. The shortener refuses them as an
 * alias and never generates one; the web app says so while an alias is
 * typed, from this same list. Pure: the browser bundle imports it as it is.
 */
export const reservedWords: ReadonlySet<string> = new Set([
  "shorten",
  "docs",
  "health",
  "ready",
  "metrics",
  "admin",
  "geocoders",
  "reverse-geocode",
  // Forward geocoding, GET /geocode (docs/geocoder.md).
  "geocode",
  "static",
  "api",
  // The gateway serves the web app under /app/.
  "app",
  // The gateway's redirect batches arrive under /internal/ (never proxied from outside).
  "internal",
  // A person signs in with POST /login, and works in /workspaces (docs/people.md).
  "login",
  "workspaces",
  "invites",
  // Anyone reports a harmful link with POST /report (docs/abuse.md).
  "report",
  "favicon.ico",
  "robots.txt",
]);

export function isReserved(code: string): boolean {
  return reservedWords.has(code.toLowerCase());
}
