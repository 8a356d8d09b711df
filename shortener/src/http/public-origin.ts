import { forwardedOrigin, requestUrl } from "@linkgeo/shared";

/**
 * Where clients reach this service: PUBLIC_BASE_URL when set, else the
 * origin the gateway forwarded (X-Forwarded-Proto/-Host) when the request
 * came from a trusted proxy (TRUSTED_PROXIES), else the request's own. A
 * forwarded value that is not a plain `http`/`https` or `host[:port]` is
 * ignored, so it can never end up in a link.
 */
export function publicOrigin(request: Request, configured: URL | undefined, viaTrustedProxy: boolean): string {
  if (configured) return configured.origin;
  const own = ownUrl(request);
  const forwarded = viaTrustedProxy ? forwardedOrigin(request.headers) : undefined;
  return `${forwarded?.proto ?? own.protocol.slice(0, -1)}://${forwarded?.host ?? own.host}`;
}

/**
 * Every origin (scheme, host and port, as URL writes it) this request could
 * have reached us by: where the web app's pages come from, for the Origin
 * check of a change made with the admin cookie.
 */
export function ownOrigins(request: Request, configured: URL | undefined, viaTrustedProxy: boolean): ReadonlySet<string> {
  const own = ownUrl(request);
  const origins = [configured?.origin, own.origin];
  if (viaTrustedProxy) {
    const forwarded = forwardedOrigin(request.headers);
    origins.push(URL.parse(`${forwarded.proto ?? own.protocol.slice(0, -1)}://${forwarded.host ?? own.host}`)?.origin);
  }
  return new Set(origins.filter((origin): origin is string => origin !== undefined));
}

/** Every host:port this request could have reached us by; a long URL may not point at any. */
export function ownHosts(request: Request, configured: URL | undefined, viaTrustedProxy: boolean): ReadonlySet<string> {
  const hosts = [configured?.host, ownUrl(request).host, viaTrustedProxy ? forwardedOrigin(request.headers).host : undefined];
  return new Set(hosts.filter((h): h is string => Boolean(h)).map((h) => h.toLowerCase()));
}

/** Where a request came from, asked once: the origin of its links (publicOrigin), and every host it could name us by (ownHosts). */
export function seenFrom(request: Request, configured: URL | undefined, viaTrustedProxy: boolean): { origin: string; hosts: ReadonlySet<string> } {
  return { origin: publicOrigin(request, configured, viaTrustedProxy), hosts: ownHosts(request, configured, viaTrustedProxy) };
}

// requestTarget() answered 400 to any request without a URL before a route ran.
function ownUrl(request: Request): URL {
  return requestUrl(request) ?? new URL("http://localhost/");
}
