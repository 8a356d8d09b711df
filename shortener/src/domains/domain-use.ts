import { Forbidden } from "@linkgeo/shared";
import type { Credential } from "../auth/credential.ts";
import { mayDo } from "../auth/scopes.ts";
import { defaultDomainId, type Domain } from "./domain.ts";

/**
 * Whether a link of workspace `workspaceId` (null: of none) may be made on
 * `domain` by `creator` (docs/people.md: "Domains of a workspace"): the
 * default domain is every one's; a domain granted to workspaces is theirs,
 * and the admins'; one granted to none is the instance's, where no
 * workspace makes links. 403 otherwise, naming the host.
 */
export function requireDomainUse(domain: Pick<Domain, "id" | "host" | "workspaces">, workspaceId: number | null, creator: Credential | undefined): void {
  if (domain.id === defaultDomainId) return;
  if (domain.workspaces.length === 0) {
    if (workspaceId === null) return;
    throw Forbidden.because(`a workspace makes links on the default domain and the domains granted to it: ${domain.host} is not one`);
  }
  if (workspaceId !== null ? domain.workspaces.includes(workspaceId) : creator !== undefined && mayDo(creator, "admin")) return;
  throw Forbidden.because(`${domain.host} is kept for the workspaces it is granted to`);
}
