import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { AuditEvent, NewAuditEvent } from "../../audit/audit-event.ts";
import type { AuditStore } from "../../audit/audit-store.ts";
import { auditEvents } from "./schema.ts";

export class PostgresAuditStore implements AuditStore {
  constructor(private readonly db: PostgresJsDatabase) {}

  async append(events: readonly NewAuditEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.insert(auditEvents).values(events.map(({ actor, ...event }) => ({ ...event, actorKind: actor.kind, actorId: actor.id })));
  }

  async page(workspaceId: number | null, limit: number, before?: number): Promise<AuditEvent[]> {
    const rows = await this.db
      .select()
      .from(auditEvents)
      .where(and(ofLog(workspaceId), before === undefined ? undefined : lt(auditEvents.id, before)))
      .orderBy(desc(auditEvents.id))
      .limit(limit);
    return rows.map(({ actorKind, actorId, ...event }) => ({ ...event, actor: { kind: actorKind, id: actorId } }));
  }

  async trim(workspaceId: number | null, keep: number): Promise<number> {
    // The newest `keep` read through the index; the rest deleted below the last of them.
    const rows = await this.db.execute(sql`
      DELETE FROM audit_events WHERE ${ofLog(workspaceId)} AND id < (
        SELECT id FROM audit_events WHERE ${ofLog(workspaceId)} ORDER BY id DESC OFFSET ${keep - 1} LIMIT 1
      ) RETURNING id`);
    return rows.length;
  }
}

function ofLog(workspaceId: number | null) {
  return workspaceId === null ? isNull(auditEvents.workspaceId) : eq(auditEvents.workspaceId, workspaceId);
}
