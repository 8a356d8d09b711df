import { adminLifetimeMs } from "../auth/admin-lifetime.ts";
import { hashSignInToken, isSignInTokenShaped, newSignInToken, type SignedInPerson, type SignInTokens } from "../auth/sign-in-token.ts";
import type { PeopleStore } from "./people-store.ts";
import type { Person } from "./person.ts";

/**
 * People's sign-ins (POST /login): a token of 32 random bytes, of which the
 * store keeps only the SHA-256 (a full-entropy secret needs no slow hash),
 * so a leaked table lets no one in, and deleting the row ends the sign-in
 * for good, on every replica at once: each request reads it from the
 * primary database. As long as an admin's: 12 hours.
 */
export class PersonSessions implements SignInTokens {
  constructor(
    private readonly store: Pick<PeopleStore, "insertSession" | "findLiveSession" | "deleteSession" | "deleteExpiredSessions">,
    private readonly clock: () => Date,
    readonly lifetimeMs = adminLifetimeMs,
  ) {}

  /** A new sign-in for a person whose password was just checked; expired ones are swept on the way. Null when the person is gone since. */
  async start(person: Person): Promise<{ token: string; expiresAt: Date } | null> {
    const now = this.clock();
    await this.store.deleteExpiredSessions(now);
    const { token, hash } = newSignInToken();
    const expiresAt = new Date(now.getTime() + this.lifetimeMs);
    if (!(await this.store.insertSession({ idHash: hash, personId: person.id, createdAt: now, expiresAt }))) return null;
    return { token, expiresAt };
  }

  /** Ends the sign-in of `token` for good, wherever it was copied: true when there was one to end. */
  async end(token: string): Promise<boolean> {
    return isSignInTokenShaped(token) && (await this.store.deleteSession(hashSignInToken(token)));
  }

  /** When the live sign-in of `token` ends; null for one unknown, ended or expired. */
  async expiryOf(token: string): Promise<Date | null> {
    if (!isSignInTokenShaped(token)) return null;
    return (await this.store.findLiveSession(hashSignInToken(token), this.clock()))?.expiresAt ?? null;
  }

  /** The person a live token is of; null for a token of another shape, unknown, ended or expired, or whose person is gone. */
  async verify(token: string): Promise<SignedInPerson | null> {
    if (!isSignInTokenShaped(token)) return null;
    const session = await this.store.findLiveSession(hashSignInToken(token), this.clock());
    return session ? { id: session.personId, username: session.username } : null;
  }
}
