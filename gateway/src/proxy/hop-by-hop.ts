/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1), so
 * a proxy must not forward them. `Host` is here too: the upstream URL names
 * the replica, and the original host travels in X-Forwarded-Host.
 */
const hopByHop = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
]);

/** A copy of `headers` without hop-by-hop ones, including those `Connection` names. */
export function withoutHopByHop(headers: Headers): Headers {
  const named = new Set(
    (headers.get("connection") ?? "")
      .split(",")
      .map((token) => token.trim().toLowerCase())
      .filter(Boolean),
  );
  const kept = new Headers();
  // Iterating a Headers object yields each Set-Cookie on its own, so several
  // cookies survive the copy instead of being joined with commas.
  for (const [name, value] of headers) {
    if (hopByHop.has(name) || named.has(name) || name.startsWith("proxy-")) continue;
    kept.append(name, value);
  }
  return kept;
}
