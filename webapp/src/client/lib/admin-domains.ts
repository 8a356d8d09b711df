/** The API calls of the admin page's domains (docs/domains.md): list, add and delete (with its links, when it has some). */
import type { DomainView } from "@linkgeo/shared/wire";
import type { Credential } from "./api.ts";
import { call, type RequestBody } from "./api-call.ts";

export type DomainRecord = DomainView;

/** A domain to add: its host, and what it does with an unknown code, a used-up link and its links' redirects. */
export type NewDomain = RequestBody<"POST /admin/domains">;

/** Every domain, the default one first, then by host. */
export async function listDomains(signal?: AbortSignal): Promise<DomainRecord[]> {
  return (await call("GET /admin/domains", { signal })).results;
}

export function addDomain(input: NewDomain, credential: Credential): Promise<DomainRecord> {
  return call("POST /admin/domains", { body: input, credential });
}

/** Deletes an added domain; `withLinks`: its links go with it (else a domain with links is a 409). */
export function deleteDomain(id: number, withLinks: boolean, credential: Credential): Promise<void> {
  return call("DELETE /admin/domains/{id}", { params: { id: String(id) }, query: withLinks ? { links: "delete" } : {}, credential });
}
