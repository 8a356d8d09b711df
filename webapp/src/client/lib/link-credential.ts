import { currentAdminSession } from "./admin-session.ts";
import type { Credential } from "./api.ts";
import { personSession } from "./person-session.ts";
import { savedLink } from "./saved-links.ts";

/** What lets this browser see a link's visits and change it, and where that came from, to say so. */
export type LinkCredential = { credential: Credential; source: "token" } | { credential: Credential; source: "session" | "person"; username: string };

/**
 * The manage token this browser saved for the link, else the admin session
 * this browser is signed in with, else a person's sign-in (a member of the
 * link's workspace reads and changes it as their role allows; anyone else
 * is refused by the API, and the page then asks for the token), else null.
 * A sign-in that cannot be checked counts as none. A token
 * is saved with its link's domain (`domain`, absent for the default one),
 * so a code taken on two hosts never lends one link's token to the other.
 */
export async function linkCredential(code: string, domain?: string): Promise<LinkCredential | null> {
  const saved = savedLink(domain === undefined ? { code } : { code, domain });
  if (saved) return { credential: { kind: "token", token: saved.manage_token }, source: "token" };
  const session = await currentAdminSession().catch(() => null);
  if (session) return { credential: { kind: "session", csrfToken: session.csrf_token }, source: "session", username: session.username };
  const person = await personSession.current().catch(() => null);
  return person ? { credential: { kind: "session", csrfToken: person.csrf_token }, source: "person", username: person.username } : null;
}
