import { describeError, type Logger } from "@linkgeo/shared";
import type { Actor, AuditAction, AuditEvent, NewAuditEvent } from "./audit-event.ts";
import type { AuditStore } from "./audit-store.ts";

export interface AuditLogDeps {
  store: AuditStore;
  clock: () => Date;
  log: Logger;
  /** The events a log keeps, newest first: each workspace's and the instance's. Default 10,000. */
  keep?: number;
}

/** What one thing done names: in whose log, by whom (auth/actor.ts: actorOf), what, to what. */
export interface Done {
  /** The workspace whose log it goes in; null: the instance's. */
  workspaceId: number | null;
  actor: Actor;
  action: AuditAction;
  target: string;
}

/**
 * The audit log (docs/people.md): each workspace's and the instance's,
 * each bounded to its newest `keep` events. An event is written once the
 * thing is done: a write that fails is logged and lost, never a failure
 * of what was done (which was, already). The log is trimmed as it is
 * written, every `keep / 100` events of a log on this replica.
 */
export class AuditLog {
  readonly keep: number;
  private readonly sinceTrim = new Map<number | null, number>();

  constructor(private readonly deps: AuditLogDeps) {
    this.keep = deps.keep ?? 10_000;
  }

  /** Records what was done; resolves once written, or once the failure is logged. */
  async record(...done: readonly Done[]): Promise<void> {
    if (done.length === 0) return;
    const at = this.deps.clock();
    const events: NewAuditEvent[] = done.map((one) => ({ ...one, at }));
    try {
      await this.deps.store.append(events);
      for (const workspaceId of new Set(events.map((event) => event.workspaceId))) await this.trimNow(workspaceId, events.length);
    } catch (error) {
      this.deps.log.warn("an audit event could not be written", { events: events.length, action: events[0]!.action, error: describeError(error) });
    }
  }

  /** A page of a log, newest first. */
  page(workspaceId: number | null, limit: number, before?: number): Promise<AuditEvent[]> {
    return this.deps.store.page(workspaceId, limit, before);
  }

  private async trimNow(workspaceId: number | null, added: number): Promise<void> {
    const since = (this.sinceTrim.get(workspaceId) ?? 0) + added;
    if (since < Math.max(1, Math.floor(this.keep / 100))) {
      this.sinceTrim.set(workspaceId, since);
      return;
    }
    this.sinceTrim.delete(workspaceId);
    await this.deps.store.trim(workspaceId, this.keep);
  }
}
