/** Who did something, as the audit log names them: never a secret (a key by its id, a manage token by its kind). */
export interface Actor {
  kind: "admin" | "person" | "api-key" | "manage-token";
  /** The admin's or the person's username, the key's id; null for a manage token. */
  id: string | null;
}

/** What was done, to what kind of thing (docs/people.md: "Audit log"). */
export const auditActions = [
  "link.create",
  "link.update",
  "link.delete",
  "link.import",
  "key.create",
  "key.revoke",
  "member.invite",
  "invite.revoke",
  "member.join",
  "member.role",
  "member.remove",
  "domain.create",
  "domain.update",
  "domain.delete",
  "person.create",
  "person.delete",
  "workspace.delete",
  "allow.create",
  "allow.delete",
  "ban.create",
  "ban.delete",
  "report.resolve",
] as const;
export type AuditAction = (typeof auditActions)[number];

/** One thing done, as the log keeps it: in a workspace's log, or the instance's (`workspaceId` null). */
export interface AuditEvent {
  id: number;
  at: Date;
  workspaceId: number | null;
  actor: Actor;
  action: AuditAction;
  /** What it was done to: a link as `host/code` (or its code on the default domain), a key's id, a username, a host; and, for some, a detail (`editor`). */
  target: string;
}

export type NewAuditEvent = Omit<AuditEvent, "id">;
