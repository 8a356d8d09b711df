import { Unauthorized } from "@linkgeo/shared";
import type { Credential } from "../links/link-service.ts";
import { AdminTokens } from "./admin-tokens.ts";

export interface CredentialResolverDeps {
  adminTokens: AdminTokens;
}

/**
 * Who is asking: the one owner of the rule, for every route that needs
 * credentials. `Authorization: Bearer <token>` is an admin token (it has a
 * dot) or else a manage token; anything else is 401.
 */
export class CredentialResolver {
  constructor(private readonly deps: CredentialResolverDeps) {}

  async resolve(request: Request): Promise<Credential> {
    return this.fromAuthorization(request.headers.get("authorization"));
  }

  private fromAuthorization(authorization: string | null): Credential {
    const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
    if (!match?.[1]) throw new Unauthorized("send Authorization: Bearer <manage_token or admin token>");
    const token = match[1];
    if (!AdminTokens.looksLikeAdminToken(token)) return { kind: "manage-token", token };
    const username = this.deps.adminTokens.verify(token);
    if (!username) throw new Unauthorized("admin token is invalid or expired");
    return { kind: "admin", username };
  }
}
