import { currentAdminSession } from "./admin-session.ts";
import type { Credential } from "./api.ts";
import { savedLink } from "./saved-links.ts";

/** What lets this browser see a link's visits and change it, and where that came from, to say so. */
export type LinkCredential = { credential: Credential; source: "token" } | { credential: Credential; source: "session"; username: string };

/**
 * The manage token this browser saved for the link, else the admin session
 * this browser is signed in with, else null (the page then asks for the
 * token). An admin session that cannot be checked counts as none. A token
 * is saved with its link's domain (`domain`, absent for the default one),
 * so a code taken on two hosts never lends one link's token to the other.
 */
export async function linkCredential(code: string, domain?: string): Promise<LinkCredential | null> {
  const saved = savedLink(domain === undefined ? { code } : { code, domain });
  if (saved) return { credential: { kind: "token", token: saved.manage_token }, source: "token" };
  const session = await currentAdminSession().catch(() => null);
  return session ? { credential: { kind: "session", csrfToken: session.csrf_token }, source: "session", username: session.username } : null;
}
