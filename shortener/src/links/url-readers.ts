import type { Credential } from "../auth/credential.ts";
import { mayDoWith, tokenManages } from "../auth/scopes.ts";
import type { Link } from "./link.ts";

/**
 * Who an answer is for: the credential the request presented (and that
 * verified), or undefined for anyone else.
 */
export type Reader = Credential | undefined;

/**
 * Whether `reader` may read a link's URLs (long_url, expired_url, the
 * rules'): the one rule of every answer that shows a record (docs/api.md:
 * "Passwords"). A link without a password hides nothing; a protected one
 * shows them to its manage token, an admin, a key with links:read (or
 * admin; a workspace's key for its workspace's links) and a member of its
 * workspace, and to no one else. A key is judged by its scopes alone, in the
 * answer of a change too: links:write may change a link it may not read,
 * but not its password (LinkService.update), which would hand it the URLs.
 */
export function mayReadUrls(link: Pick<Link, "passwordHash" | "manageTokenHash" | "workspaceId">, reader: Reader): boolean {
  if (link.passwordHash === null) return true;
  if (reader === undefined) return false;
  if (reader.kind === "manage-token") return tokenManages(reader.token, link);
  return mayDoWith(reader, "links:read", link);
}

/**
 * Whether `reader` may read what a link's public record leaves out (its
 * workspace): its manage token, an admin, a key with links:read over it, a
 * member of its workspace.
 */
export function mayReadLink(link: Pick<Link, "manageTokenHash" | "workspaceId">, reader: Reader): boolean {
  if (reader === undefined) return false;
  if (reader.kind === "manage-token") return tokenManages(reader.token, link);
  return mayDoWith(reader, "links:read", link);
}
