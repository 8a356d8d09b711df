import { timingSafeEqual } from "node:crypto";

/**
 * A manage token is 32 random bytes (base64url). Only its SHA-256 is stored:
 * the token has full entropy, so a slow password hash would add nothing but
 * latency, and a database leak still does not reveal it.
 */
export function newManageToken(): { token: string; hash: string } {
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  return { token, hash: hashManageToken(token) };
}

/** What newManageToken makes: 32 bytes in unpadded base64url are 43 of its characters. */
const manageTokenShape = /^[A-Za-z0-9_-]{43}$/;

/**
 * Whether `token` could be a manage token at all: one that could not (a
 * shell's `null` after a failed login, a truncated copy) is no link's, and
 * the caller should hear that, not that this link is not theirs.
 */
export function looksLikeManageToken(token: string): boolean {
  return manageTokenShape.test(token);
}

export function hashManageToken(token: string): string {
  return new Bun.CryptoHasher("sha256").update(token).digest("hex");
}

export function manageTokenMatches(token: string, storedHash: string): boolean {
  const offered = Buffer.from(hashManageToken(token));
  const stored = Buffer.from(storedHash);
  return offered.length === stored.length && timingSafeEqual(offered, stored);
}

/**
 * Stored hashes that no manage token matches, for links that only admins and
 * API keys manage (imported ones): not 64 hex digits, so neither
 * manageTokenMatches nor a lookup by a token's SHA-256 ever meets one.
 * Unique (a random run id, then a counter) and increasing within a run, so
 * an import's million links land side by side in the unique index instead of
 * on a million random pages (bench:import).
 */
export function unmanagedTokenHashes(): () => string {
  const run = Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString("hex");
  let next = 0;
  return () => `none:${run}:${(next++).toString(16).padStart(12, "0")}`;
}
