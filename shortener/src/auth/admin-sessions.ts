import { Unauthorized } from "@linkgeo/shared";
import { adminLifetimeMs } from "./admin-lifetime.ts";
import type { AdminSessionStore } from "./admin-session-store.ts";
import { csrfTokenFor, csrfTokenMatches } from "./csrf-token.ts";

/** A signed-in admin, as the session endpoints and the credential resolver see it. */
export interface ActiveSession {
  /** The cookie's value; never stored, never logged. */
  id: string;
  username: string;
  csrfToken: string;
  expiresAt: Date;
}

// 32 random bytes in base64url: what start() makes, and all find() looks up.
const sessionIdShape = /^[A-Za-z0-9_-]{43}$/;

// The most cookie values one request may cost in lookups. Ours has Path=/, and
// only one Path=/ cookie of a name can exist per domain (the host and each
// parent domain), so 8 reach it whatever longer paths carry.
const maxLookups = 8;

/**
 * Server-side admin sessions for the web app's cookie. The id is 32 random
 * bytes; the store keeps only its SHA-256 (a full-entropy secret needs no
 * slow hash), so a leaked table lets no one in, and deleting the row ends
 * the session for good, wherever the cookie was copied to.
 */
export class AdminSessions {
  constructor(
    private readonly store: AdminSessionStore,
    private readonly secret: string,
    private readonly clock: () => Date,
    readonly lifetimeMs = adminLifetimeMs,
  ) {}

  /** A new session for an admin whose password was just checked; expired sessions are swept on the way. */
  async start(username: string): Promise<ActiveSession> {
    const now = this.clock();
    await this.store.deleteExpired(now);
    const id = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
    const expiresAt = new Date(now.getTime() + this.lifetimeMs);
    // The admin may have been removed since the password was checked.
    if (!(await this.store.insert({ idHash: hashOf(id), username, createdAt: now, expiresAt }))) throw Unauthorized.because("invalid username or password");
    return { id, username, csrfToken: csrfTokenFor(this.secret, id), expiresAt };
  }

  /** The live session with this id (a cookie's value, any text), or null. */
  private async find(id: string): Promise<ActiveSession | null> {
    if (!sessionIdShape.test(id)) return null;
    const stored = await this.store.find(hashOf(id), this.clock());
    return stored && { id, username: stored.username, csrfToken: csrfTokenFor(this.secret, id), expiresAt: stored.expiresAt };
  }

  /**
   * The live session among a request's `linkgeo_admin` values (see
   * sessionIdsFrom), or null. The last value is tried first: browsers send
   * cookies of longer paths before those of shorter ones (RFC 6265 §5.4), and
   * ours has Path=/, so values tossed onto narrower paths come before it. They
   * cannot push it out of the values looked up, and a live session tossed by
   * another admin loses to the browser's own. Only distinct well-shaped
   * values count, at most maxLookups of them.
   */
  async findAmong(ids: readonly string[]): Promise<ActiveSession | null> {
    const candidates = [...new Set([...ids].reverse().filter((id) => sessionIdShape.test(id)))].slice(0, maxLookups);
    for (const id of candidates) {
      const session = await this.find(id);
      if (session) return session;
    }
    return null;
  }

  /** Ends the session: its id never works again. */
  async end(session: ActiveSession): Promise<void> {
    await this.store.delete(hashOf(session.id));
  }

  /** Whether `offered` (X-CSRF-Token, maybe absent) is this session's CSRF token. */
  csrfTokenMatches(session: ActiveSession, offered: string | null): boolean {
    return csrfTokenMatches(this.secret, session.id, offered);
  }
}

function hashOf(id: string): string {
  return new Bun.CryptoHasher("sha256").update(id).digest("hex");
}
