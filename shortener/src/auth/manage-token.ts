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

export function hashManageToken(token: string): string {
  return new Bun.CryptoHasher("sha256").update(token).digest("hex");
}

export function manageTokenMatches(token: string, storedHash: string): boolean {
  const offered = Buffer.from(hashManageToken(token));
  const stored = Buffer.from(storedHash);
  return offered.length === stored.length && timingSafeEqual(offered, stored);
}
