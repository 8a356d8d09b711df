import type { ApiKeyScope } from "./api-key.ts";

/**
 * Who is asking: an admin (token or session), the holder of one link's
 * manage token, or a program with an API key and its scopes.
 */
export type Credential =
  | { kind: "admin"; username: string }
  | { kind: "manage-token"; token: string }
  | { kind: "api-key"; id: string; scopes: readonly ApiKeyScope[] };
