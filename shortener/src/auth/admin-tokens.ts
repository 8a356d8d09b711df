import { timingSafeEqual } from "node:crypto";
import { adminLifetimeMs } from "./admin-lifetime.ts";

export interface IssuedAdminToken {
  token: string;
  expiresAt: Date;
}

/**
 * Admin session tokens: `base64url(payload).base64url(HMAC-SHA256)`, signed
 * with ELYSIA_SECRET_KEY. Stateless, so every replica verifies them alike.
 * They always contain a dot; manage tokens never do.
 */
export class AdminTokens {
  constructor(
    private readonly secret: string,
    private readonly clock: () => Date,
    private readonly lifetimeMs = adminLifetimeMs,
  ) {}

  issue(username: string): IssuedAdminToken {
    const expiresAt = new Date(this.clock().getTime() + this.lifetimeMs);
    const payload = Buffer.from(JSON.stringify({ sub: username, exp: expiresAt.getTime() })).toString("base64url");
    return { token: `${payload}.${this.sign(payload)}`, expiresAt };
  }

  /** The admin's username, or null for a forged, malformed or expired token. */
  verify(token: string): string | null {
    const [payload, signature, ...rest] = token.split(".");
    if (!payload || !signature || rest.length > 0) return null;
    const expected = Buffer.from(this.sign(payload));
    const offered = Buffer.from(signature);
    if (expected.length !== offered.length || !timingSafeEqual(expected, offered)) return null;
    try {
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as { sub?: unknown; exp?: unknown };
      if (typeof claims.sub !== "string" || typeof claims.exp !== "number") return null;
      return claims.exp > this.clock().getTime() ? claims.sub : null;
    } catch {
      return null;
    }
  }

  static looksLikeAdminToken(token: string): boolean {
    return token.includes(".");
  }

  private sign(payload: string): string {
    return new Bun.CryptoHasher("sha256", this.secret).update(payload).digest("base64url");
  }
}
