// A name of letters, digits, hyphens and dots, or a bracketed IPv6 literal; then an optional port.
const hostShape = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,62})?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62})?)*\.?|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

/**
 * `host[:port]` from a Host or X-Forwarded-Host value, lower case, or
 * undefined when it is anything else: empty, a port over 65535, a user
 * name, a path, spaces, a list. Services build absolute links from it, so a
 * value that is not a plain authority must never get through.
 */
export function parseHostHeader(value: string | null | undefined): string | undefined {
  const text = value?.trim();
  if (!text || text.length > 255) return undefined;
  const match = hostShape.exec(text);
  if (!match) return undefined;
  if (match[1] !== undefined && Number(match[1]) > 65535) return undefined;
  if (!URL.canParse(`http://${text}/`)) return undefined;
  return text.toLowerCase();
}

/**
 * What a proxy said of the original request in X-Forwarded-Proto and
 * -Host: the first value of each (the proxy nearest the client), when it is
 * `http`/`https` or a plain `host[:port]`; undefined otherwise. Only to be
 * asked of a request from a trusted proxy.
 */
export function forwardedOrigin(headers: Headers): { proto: "http" | "https" | undefined; host: string | undefined } {
  const proto = firstValue(headers.get("x-forwarded-proto"));
  return {
    proto: proto === "http" || proto === "https" ? proto : undefined,
    host: parseHostHeader(firstValue(headers.get("x-forwarded-host"))),
  };
}

function firstValue(header: string | null): string | undefined {
  return header?.split(",")[0]?.trim().toLowerCase() || undefined;
}
