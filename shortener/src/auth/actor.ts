import type { Actor } from "../audit/audit-event.ts";
import type { Credential } from "./credential.ts";

/** The actor a credential names in the audit log: a person by username, a key by its id, never a secret. */
export function actorOf(credential: Credential): Actor {
  switch (credential.kind) {
    case "admin":
      return { kind: "admin", id: credential.username };
    case "person":
      return { kind: "person", id: credential.username };
    case "api-key":
      return { kind: "api-key", id: credential.id };
    case "manage-token":
      return { kind: "manage-token", id: null };
  }
}
