import type { ApiKeyScope } from "./api-key.ts";

/**
 * Who is asking: an admin (token or session), the holder of one link's
 * manage token, a program with an API key and its scopes, or a person
 * signed in (docs/people.md), who may do nothing an admin's scope names.
 */
export type Credential =
  | { kind: "admin"; username: string }
  | { kind: "manage-token"; token: string }
  | { kind: "api-key"; id: string; scopes: readonly ApiKeyScope[] }
  | { kind: "person"; id: number; username: string };
