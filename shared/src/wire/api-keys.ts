/**
 * What an API key may do: read links, change them (and make them), make
 * links and nothing else (safe in a web page), read visits, or all an
 * admin may.
 */
export const apiKeyScopes = ["links:read", "links:write", "links:create", "visits:read", "admin"] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

/** A key as the API lists it (`/admin/api-keys`): never the key, nor its hash. */
export interface ApiKeyView {
  id: string;
  name: string;
  scopes: ApiKeyScope[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  /** The workspace of a key made there (docs/people.md); null for an admin's key. */
  workspace: number | null;
}
