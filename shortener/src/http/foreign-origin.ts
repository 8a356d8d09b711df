/**
 * Whether an `Origin` header names a site other than this service, reached
 * by any of `ownOrigins` (see `ownOrigins` in public-origin.ts). Scheme,
 * host and port are compared, as browsers compare origins: `https://host`
 * is another site than `http://host`. An absent header is not foreign
 * (clients other than browsers send none); `null`, garbage and non-http(s)
 * origins are. A browser sends Origin with every cross-site POST, PUT and
 * DELETE, so this refuses them even before the CSRF token is looked at.
 */
export function isForeignOrigin(origin: string | null, ownOrigins: ReadonlySet<string>): boolean {
  if (origin === null) return false;
  const url = URL.parse(origin);
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) return true;
  // URL's origin is lower case and drops a default port, as ownOrigins are.
  return !ownOrigins.has(url.origin);
}
