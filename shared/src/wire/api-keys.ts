/** What an API key may do: read links, change them, read visits, or all an admin may. */
export const apiKeyScopes = ["links:read", "links:write", "visits:read", "admin"] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

/** A key as the API lists it (`/admin/api-keys`): never the key, nor its hash. */
export interface ApiKeyView {
  id: string;
  name: string;
  scopes: ApiKeyScope[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}
