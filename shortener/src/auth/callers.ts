import type { ApiKeyScope } from "./api-key.ts";

/** Who may call a route: what its 401 tells a caller who sent no credential to send. */
export interface Callers {
  /** The link's own manage token is enough (a route of one link). */
  manageToken: boolean;
  /** The scope an API key needs there (an admin may do everything); null: neither a key nor an admin may. */
  scope: ApiKeyScope | null;
  /** A person signed in (POST /login) may call it too. */
  person?: boolean;
}

/** A route of one link: its manage token, a member of its workspace, an admin, or a key with `scope`. */
export function linkOwnersOr(scope: ApiKeyScope): Callers {
  return { manageToken: true, scope, person: true };
}

/** A route of every link: an admin, or a key with `scope`. */
export function adminsOr(scope: ApiKeyScope): Callers {
  return { manageToken: false, scope };
}

/** A route of people's: a person signed in, an admin, or a key with `scope`. */
export function peopleOr(scope: ApiKeyScope): Callers {
  return { manageToken: false, scope, person: true };
}

/** A route only a person signed in may call (making a workspace): no admin and no key. */
export const peopleOnly: Callers = { manageToken: false, scope: null, person: true };

/** The 401 sentence for a request without credentials: the credentials this route takes, and only those. */
export function credentialsWanted(callers: Callers): string {
  if (callers.scope === null) return "send Authorization: Bearer with a person's sign-in token (POST /login)";
  const tokens = [
    ...(callers.manageToken ? ["the link's manage token"] : []),
    ...(callers.person ? ["a person's sign-in token (POST /login)"] : []),
    "an admin token",
    `an API key with ${callers.scope}`,
  ];
  return `send Authorization: Bearer with ${tokens.slice(0, -1).join(", ")} or ${tokens.at(-1)}, or sign in as an admin`;
}
