/** The API calls of the admin page's API keys: list, make (the key is in that answer only) and revoke. */
import type { ApiKeyView } from "@linkgeo/shared/wire";
import type { Credential } from "./api.ts";
import { call, type RequestBody } from "./api-call.ts";

export { apiKeyScopes } from "@linkgeo/shared/wire";
export type ApiKeyRecord = ApiKeyView;

/** A key to make: its name, its scopes, and `expires_at` (ISO 8601 with the reader's offset; absent: never expires). */
export type NewApiKey = RequestBody<"POST /admin/api-keys">;

/** Where a page's keys are listed, made and revoked: the admin's (below) or a workspace's (workspace-calls.ts). */
export interface KeyCalls {
  list(signal?: AbortSignal): Promise<ApiKeyRecord[]>;
  create(input: NewApiKey, credential: Credential): Promise<ApiKeyRecord & { key: string }>;
  revoke(id: string, credential: Credential): Promise<void>;
}

/** Every key, newest first. */
export async function listApiKeys(signal?: AbortSignal): Promise<ApiKeyRecord[]> {
  return (await call("GET /admin/api-keys", { signal })).results;
}

/** Makes a key: the answer's `key` is shown once and never again. */
export function createApiKey(input: NewApiKey, credential: Credential): Promise<ApiKeyRecord & { key: string }> {
  return call("POST /admin/api-keys", { body: input, credential });
}

export function revokeApiKey(id: string, credential: Credential): Promise<void> {
  return call("DELETE /admin/api-keys/{id}", { params: { id }, credential });
}

export const adminKeyCalls: KeyCalls = { list: listApiKeys, create: createApiKey, revoke: revokeApiKey };
