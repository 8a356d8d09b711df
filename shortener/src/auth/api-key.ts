import type { ApiKeyScope } from "@linkgeo/shared";
import { timingSafeEqual } from "node:crypto";

export { apiKeyScopes, type ApiKeyScope } from "@linkgeo/shared";

/** Every key starts so: a token that does not is a manage or admin token, and a leaked key is easy to find in a repository. */
export const apiKeyPrefix = "lgk_";

/** An API key as the store keeps it: never the key, only its SHA-256. */
export interface ApiKey {
  id: string;
  name: string;
  keyHash: string;
  scopes: ApiKeyScope[];
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  /** A workspace's key (docs/people.md): its workspace, and the person who made it; both null for an admin's key. */
  workspaceId: number | null;
  madeBy: number | null;
}

/**
 * A new key: the prefix and 32 random bytes (base64url). As a manage
 * token, it has full entropy, so its SHA-256 is all that is stored: a slow
 * hash would add latency to every request and nothing to a leak.
 */
export function newApiKey(): { key: string; hash: string } {
  const key = `${apiKeyPrefix}${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")}`;
  return { key, hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return new Bun.CryptoHasher("sha256").update(key).digest("hex");
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(apiKeyPrefix);
}

export function apiKeyMatches(key: string, storedHash: string): boolean {
  const offered = Buffer.from(hashApiKey(key));
  const stored = Buffer.from(storedHash);
  return offered.length === stored.length && timingSafeEqual(offered, stored);
}
