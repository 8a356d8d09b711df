import { Unauthorized } from "@linkgeo/shared";
import type { Credential } from "../links/link-service.ts";
import { AdminTokens } from "./admin-tokens.ts";

/** Reads `Authorization: Bearer <token>`: an admin token, or else a manage token. */
export function credentialFrom(authorization: string | null | undefined, adminTokens: AdminTokens): Credential {
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  if (!match?.[1]) throw new Unauthorized("send Authorization: Bearer <manage_token or admin token>");
  const token = match[1];
  if (!AdminTokens.looksLikeAdminToken(token)) return { kind: "manage-token", token };
  const username = adminTokens.verify(token);
  if (!username) throw new Unauthorized("admin token is invalid or expired");
  return { kind: "admin", username };
}
