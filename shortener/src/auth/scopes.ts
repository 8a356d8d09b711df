import { Forbidden } from "@linkgeo/shared";
import type { ApiKeyScope } from "./api-key.ts";
import type { Credential } from "./credential.ts";

/**
 * Whether `credential` may do what `scope` names on any link: an admin may
 * do everything, a key what its scopes say (`admin` is every scope), a
 * manage token none of it (it manages its one link, see LinkService.authorized).
 */
export function mayDo(credential: Credential, scope: ApiKeyScope): boolean {
  if (credential.kind === "admin") return true;
  if (credential.kind === "api-key") return credential.scopes.includes(scope) || credential.scopes.includes("admin");
  return false;
}

/** 403 unless `credential` may do what `scope` names: naming the scope for a key, `refusal` for anyone else. */
export function requireScope(credential: Credential, scope: ApiKeyScope, refusal: string): void {
  if (mayDo(credential, scope)) return;
  if (credential.kind === "api-key") throw Forbidden.because(`this API key lacks the scope ${scope}`);
  throw Forbidden.because(refusal);
}
