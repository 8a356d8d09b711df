import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { AuditEvent, NewAuditEvent } from "../../audit/audit-event.ts";
import type { AuditStore } from "../../audit/audit-store.ts";
import { auditEvents } from "./schema.ts";

export class SqliteAuditStore implements AuditStore {
  constructor(private readonly db: BunSQLiteDatabase) {}

  async append(events: readonly NewAuditEvent[]): Promise<void> {
    if (events.length === 0) return;
    this.db
      .insert(auditEvents)
      .values(events.map(({ actor, ...event }) => ({ ...event, actorKind: actor.kind, actorId: actor.id })))
      .run();
  }

  async page(workspaceId: number | null, limit: number, before?: number): Promise<AuditEvent[]> {
    const rows = this.db
      .select()
      .from(auditEvents)
      .where(and(ofLog(workspaceId), before === undefined ? undefined : lt(auditEvents.id, before)))
      .orderBy(desc(auditEvents.id))
      .limit(limit)
      .all();
    return rows.map(({ actorKind, actorId, ...event }) => ({ ...event, actor: { kind: actorKind, id: actorId } }));
  }

  async trim(workspaceId: number | null, keep: number): Promise<number> {
    return this.db
      .delete(auditEvents)
      .where(
        and(ofLog(workspaceId), lt(auditEvents.id, sql`(SELECT id FROM audit_events WHERE ${ofLog(workspaceId)} ORDER BY id DESC LIMIT 1 OFFSET ${keep - 1})`)),
      )
      .returning({ id: auditEvents.id })
      .all().length;
  }
}

function ofLog(workspaceId: number | null) {
  return workspaceId === null ? isNull(auditEvents.workspaceId) : eq(auditEvents.workspaceId, workspaceId);
}
