import type { AuditEvent, NewAuditEvent } from "./audit-event.ts";

/** Where the audit log lives. One implementation per engine; both pass the same suite (`shortener/test/audit-api.test.ts`). */
export interface AuditStore {
  /** Appends the events, in order. */
  append(events: readonly NewAuditEvent[]): Promise<void>;
  /** Up to `limit` events of a workspace (`workspaceId` null: the instance's), newest first, older than event `before` when given. */
  page(workspaceId: number | null, limit: number, before?: number): Promise<AuditEvent[]>;
  /** Deletes a log's events but its newest `keep`; how many went. */
  trim(workspaceId: number | null, keep: number): Promise<number>;
}
