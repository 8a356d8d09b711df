import type { Credential } from "../auth/credential.ts";
import { requireScopeWith, type OwnedLink } from "../auth/scopes.ts";

/**
 * Opening a link's visits report to anyone (`public_stats: true`) is for
 * those who may read it: a key or a person needs visits:read over the link
 * (a viewer, an editor and an owner have it; a key with links:write or
 * links:create alone does not), or the call would hand them a report their
 * scopes refuse. The link's manage token reads its visits, and so does an
 * anonymous creator, who holds it. Closing the report needs nothing more
 * than changing the link.
 */
export function requireMayOpenVisits(credential: Credential | undefined, link: OwnedLink, opens: boolean): void {
  if (!opens || credential === undefined || credential.kind === "manage-token") return;
  requireScopeWith(credential, "visits:read", link, "making a link's visits public needs visits:read");
}
