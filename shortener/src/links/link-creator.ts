import type { Credential } from "../auth/credential.ts";

/** Who made a link, as the reports' queue shows it (docs/abuse.md): a key, a person, an admin, or anyone (a link made without a credential). */
export interface LinkCreator {
  kind: "api-key" | "person" | "admin" | "anonymous";
  /** The key's id, the person's or the admin's username; null for anyone. */
  id: string | null;
}

/** What a link keeps of its maker (`created_by`): null for anyone, and for a manage token's holder. */
export function createdByOf(credential: Credential | undefined): string | null {
  switch (credential?.kind) {
    case "api-key":
      return `api-key:${credential.id}`;
    case "person":
      return `person:${credential.username}`;
    case "admin":
      return `admin:${credential.username}`;
    default:
      return null;
  }
}

/** A link's `created_by` read back. */
export function linkCreator(createdBy: string | null): LinkCreator {
  const colon = createdBy?.indexOf(":") ?? -1;
  const kind = createdBy?.slice(0, colon);
  if (createdBy === null || (kind !== "api-key" && kind !== "person" && kind !== "admin")) return { kind: "anonymous", id: null };
  return { kind, id: createdBy.slice(colon + 1) };
}
