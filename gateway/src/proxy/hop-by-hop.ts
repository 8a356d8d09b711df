/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1), so
 * a proxy must not forward them. `Host` is here too: the upstream URL names
 * the replica, and the original host travels in X-Forwarded-Host.
 */
const hopByHop = new Set(["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "host"]);

/** Whether a header (lower-case name) is about one connection, given what that message's `Connection` names. */
function isHopByHop(name: string, connection: string | null | undefined): boolean {
  if (hopByHop.has(name) || name.startsWith("proxy-")) return true;
  if (!connection) return false;
  return connection.split(",").some((token) => token.trim().toLowerCase() === name);
}

/** A copy of `headers` without hop-by-hop ones, including those `Connection` names. */
export function withoutHopByHop(headers: Headers): Headers {
  const connection = headers.get("connection");
  const kept = new Headers();
  // Iterating a Headers object yields each Set-Cookie on its own, so several
  // cookies survive the copy instead of being joined with commas.
  for (const [name, value] of headers) {
    if (!isHopByHop(name, connection)) kept.append(name, value);
  }
  return kept;
}

/** The same for headers as a plain record (one value each), names made lower-case. */
export function recordWithoutHopByHop(headers: Readonly<Record<string, string>>): Record<string, string> {
  const lower: Record<string, string> = {};
  for (const name in headers) lower[name.toLowerCase()] = headers[name]!;
  const connection = lower.connection;
  const kept: Record<string, string> = {};
  for (const name in lower) if (!isHopByHop(name, connection)) kept[name] = lower[name]!;
  return kept;
}
