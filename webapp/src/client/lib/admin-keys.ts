/** The API calls of the admin page's API keys: list, make (the key is in that answer only) and revoke. */
import type { ApiKeyScope, ApiKeyView } from "@linkgeo/shared/wire";
import { api, type Credential } from "./api.ts";

export { apiKeyScopes } from "@linkgeo/shared/wire";
export type ApiKeyRecord = ApiKeyView;

export interface NewApiKey {
  name: string;
  scopes: ApiKeyScope[];
  /** ISO 8601 with the reader's offset; absent: never expires. */
  expires_at?: string;
}

/** Every key, newest first. */
export async function listApiKeys(signal?: AbortSignal): Promise<ApiKeyRecord[]> {
  return (await api<{ results: ApiKeyRecord[] }>("/admin/api-keys", { signal })).results;
}

/** Makes a key: the answer's `key` is shown once and never again. */
export function createApiKey(input: NewApiKey, credential: Credential): Promise<ApiKeyRecord & { key: string }> {
  return api<ApiKeyRecord & { key: string }>("/admin/api-keys", { method: "POST", body: input, credential });
}

export function revokeApiKey(id: string, credential: Credential): Promise<void> {
  return api<void>(`/admin/api-keys/${encodeURIComponent(id)}`, { method: "DELETE", credential });
}
