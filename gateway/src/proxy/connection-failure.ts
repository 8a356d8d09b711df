/** Bun's codes for a connection that was never opened, so nothing was sent. */
const neverConnected = new Set(["ECONNREFUSED", "ConnectionRefused", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/**
 * What a failed fetch to a replica means. "refused": no connection, the
 * request never reached the upstream. "dropped": a connection was open, so
 * the upstream may have received the request (Bun reports a close before and
 * after sending alike, ECONNRESET). Undefined: not a network failure (a bug),
 * for the caller to rethrow as is.
 */
export function connectionFailure(error: unknown): "refused" | "dropped" | undefined {
  // Bun's fetch rejects with a TypeError carrying a `code` for network failures.
  const code = error instanceof Error && "code" in error ? String(error.code) : "";
  if (neverConnected.has(code)) return "refused";
  if (error instanceof TypeError || code !== "") return "dropped";
  return undefined;
}
