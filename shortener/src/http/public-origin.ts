/**
 * Where clients reach this service: PUBLIC_BASE_URL when set, else the
 * origin the gateway forwarded (X-Forwarded-Proto/-Host), else the
 * request's own.
 */
export function publicOrigin(request: Request, configured: URL | undefined): string {
  if (configured) return configured.origin;
  const url = new URL(request.url);
  const proto = firstValue(request.headers.get("x-forwarded-proto")) ?? url.protocol.slice(0, -1);
  const host = firstValue(request.headers.get("x-forwarded-host")) ?? request.headers.get("host") ?? url.host;
  return `${proto === "https" ? "https" : "http"}://${host}`;
}

/** Every host:port this request could have reached us by; a long URL may not point at any. */
export function ownHosts(request: Request, configured: URL | undefined): ReadonlySet<string> {
  const hosts = [
    configured?.host,
    new URL(request.url).host,
    request.headers.get("host"),
    firstValue(request.headers.get("x-forwarded-host")),
  ];
  return new Set(hosts.filter((h): h is string => Boolean(h)).map((h) => h.toLowerCase()));
}

function firstValue(header: string | null): string | undefined {
  return header?.split(",")[0]?.trim() || undefined;
}
