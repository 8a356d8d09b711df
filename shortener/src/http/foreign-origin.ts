const defaultPorts: Record<string, string> = { "http:": "80", "https:": "443" };

/**
 * Whether an `Origin` header names a site other than this service, reached
 * by any of `ownHosts` (see `ownHosts` in public-origin.ts). An absent
 * header is not foreign (clients other than browsers send none); `null`,
 * garbage and non-http(s) origins are. A browser sends Origin with every
 * cross-site POST, PUT and DELETE, so this refuses them even before the CSRF
 * token is looked at.
 */
export function isForeignOrigin(origin: string | null, ownHosts: ReadonlySet<string>): boolean {
  if (origin === null) return false;
  if (!URL.canParse(origin)) return true;
  const url = new URL(origin);
  const defaultPort = defaultPorts[url.protocol];
  if (defaultPort === undefined) return true;
  // URL drops a default port; a forwarded X-Forwarded-Host may spell it out.
  return !ownHosts.has(url.host) && !(url.port === "" && ownHosts.has(`${url.host}:${defaultPort}`));
}
