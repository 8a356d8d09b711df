import type { ApiKeyScope } from "./api-key.ts";

/** Who may call a route: what its 401 tells a caller who sent no credential to send. */
export interface Callers {
  /** The link's own manage token is enough (a route of one link). */
  manageToken: boolean;
  /** The scope an API key needs there (an admin may do everything). */
  scope: ApiKeyScope;
}

/** A route of one link: its manage token, an admin, or a key with `scope`. */
export function linkOwnersOr(scope: ApiKeyScope): Callers {
  return { manageToken: true, scope };
}

/** A route of every link: an admin, or a key with `scope`. */
export function adminsOr(scope: ApiKeyScope): Callers {
  return { manageToken: false, scope };
}

/** The 401 sentence for a request without credentials: the credentials this route takes, and only those. */
export function credentialsWanted(callers: Callers): string {
  const tokens = [...(callers.manageToken ? ["the link's manage token"] : []), "an admin token", `an API key with ${callers.scope}`];
  return `send Authorization: Bearer with ${tokens.slice(0, -1).join(", ")} or ${tokens.at(-1)}, or sign in as an admin`;
}
