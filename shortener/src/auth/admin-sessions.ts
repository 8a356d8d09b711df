import { Unauthorized } from "@linkgeo/shared";
import { adminLifetimeMs } from "./admin-lifetime.ts";
import type { AdminSessionStore } from "./admin-session-store.ts";
import { csrfTokenFor } from "./csrf-token.ts";

/** A signed-in admin, as the session endpoints and the credential resolver see it. */
export interface ActiveSession {
  /** The cookie's value; never stored, never logged. */
  id: string;
  username: string;
  csrfToken: string;
  expiresAt: Date;
}

// 32 random bytes in base64url: what start() makes, and all liveAmong() looks up.
const sessionIdShape = /^[A-Za-z0-9_-]{43}$/;

/**
 * Server-side admin sessions for the web app's cookie. The id is 32 random
 * bytes; the store keeps only its SHA-256 (a full-entropy secret needs no
 * slow hash), so a leaked table lets no one in, and deleting the row ends
 * the session for good, wherever the cookie was copied to.
 */
export class AdminSessions {
  constructor(
    private readonly store: AdminSessionStore,
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
    return { id, username, csrfToken: csrfTokenFor(id), expiresAt };
  }

  /**
   * The live sessions among a request's `linkgeo_admin` values (see
   * sessionIdsFrom): junk, dead and expired ids are skipped. A browser sends
   * one value per cookie path and domain, and a page on another port or a
   * sibling subdomain of the host can add its own ("cookie tossing"), before
   * ours or after it. Every distinct well-shaped value is looked up, in one
   * query, wherever it stands: a cap on how many would make the answer
   * depend on the order, and a client choosing the order could push ours
   * out (an earlier cap of 8 did). The header bounds them: Bun refuses a
   * header section over 16 KiB (431), about 270 such values.
   */
  async liveAmong(ids: readonly string[]): Promise<ActiveSession[]> {
    const candidates = [...new Set(ids.filter((id) => sessionIdShape.test(id)))];
    const idOfHash = new Map(candidates.map((id) => [hashOf(id), id]));
    const stored = await this.store.findLive([...idOfHash.keys()], this.clock());
    return stored.map(({ idHash, username, expiresAt }) => {
      const id = idOfHash.get(idHash)!;
      return { id, username, csrfToken: csrfTokenFor(id), expiresAt };
    });
  }

  /** Ends each session: its id never works again. */
  async end(...sessions: ActiveSession[]): Promise<void> {
    for (const session of sessions) await this.store.delete(hashOf(session.id));
  }
}

function hashOf(id: string): string {
  return new Bun.CryptoHasher("sha256").update(id).digest("hex");
}
