/**
 * A full-entropy secret with a prefix that names its kind (`lgs_…` a
 * sign-in, `lgi_…` an invite): 32 random bytes in base64url, of which only
 * the SHA-256 is kept (a slow hash adds nothing for such a secret).
 */
export function newSecretToken(prefix: string): { token: string; hash: string } {
  const token = `${prefix}${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")}`;
  return { token, hash: hashSecretToken(token) };
}

/** The SHA-256 (hex) a secret token is kept as. */
export function hashSecretToken(token: string): string {
  return new Bun.CryptoHasher("sha256").update(token).digest("hex");
}

/** The shape of a token `newSecretToken(prefix)` makes: the prefix and 43 base64url characters. */
export function secretTokenShape(prefix: string): RegExp {
  return new RegExp(`^${prefix}[A-Za-z0-9_-]{43}$`);
}
