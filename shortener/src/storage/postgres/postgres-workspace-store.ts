import { and, asc, eq, gt, lte, sql } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { NewPerson } from "../../people/person.ts";
import type { MemberWorkspace, Workspace, WorkspaceInvite, WorkspaceMember, WorkspaceRole } from "../../people/workspace.ts";
import type { WorkspaceStore } from "../../people/workspace-store.ts";
import { isForeignKeyViolation } from "../storage-unavailable.ts";
import { apiKeys, people, workspaceInvites, workspaceMembers, workspaces } from "./schema.ts";

export class PostgresWorkspaceStore implements WorkspaceStore {
  constructor(private readonly db: PostgresJsDatabase) {}

  async create(workspace: { name: string; createdAt: Date }, ownerId: number): Promise<MemberWorkspace | null> {
    // One statement: the workspace and its owner's membership together, or neither when the person is gone.
    const at = workspace.createdAt.toISOString();
    const rows = await this.db.execute<{ id: number; name: string; created_at: string }>(sql`
      WITH owner AS (SELECT id FROM people WHERE id = ${ownerId}),
      made AS (INSERT INTO workspaces (name, created_at) SELECT ${workspace.name}, ${at}::timestamptz FROM owner RETURNING id, name, created_at),
      joined AS (INSERT INTO workspace_members (workspace_id, person_id, role, created_at)
                 SELECT made.id, owner.id, 'owner', ${at}::timestamptz FROM made, owner RETURNING workspace_id)
      SELECT made.id, made.name, made.created_at FROM made, joined`);
    const row = rows[0];
    return row ? { id: row.id, name: row.name, createdAt: new Date(row.created_at), role: "owner" } : null;
  }

  async ofPerson(personId: number): Promise<MemberWorkspace[]> {
    return this.db
      .select({ id: workspaces.id, name: workspaces.name, createdAt: workspaces.createdAt, role: workspaceMembers.role })
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .where(eq(workspaceMembers.personId, personId))
      .orderBy(asc(workspaces.id));
  }

  async page(after: number, limit: number): Promise<Workspace[]> {
    return this.db.select().from(workspaces).where(gt(workspaces.id, after)).orderBy(asc(workspaces.id)).limit(limit);
  }

  async find(id: number): Promise<Workspace | null> {
    return (await this.db.select().from(workspaces).where(eq(workspaces.id, id)))[0] ?? null;
  }

  async roleOf(workspaceId: number, personId: number): Promise<WorkspaceRole | null> {
    const rows = await this.db
      .select({ role: workspaceMembers.role })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.personId, personId)));
    return rows[0]?.role ?? null;
  }

  async members(workspaceId: number): Promise<WorkspaceMember[]> {
    return this.db
      .select({ personId: workspaceMembers.personId, username: people.username, role: workspaceMembers.role, joinedAt: workspaceMembers.createdAt })
      .from(workspaceMembers)
      .innerJoin(people, eq(people.id, workspaceMembers.personId))
      .where(eq(workspaceMembers.workspaceId, workspaceId))
      .orderBy(asc(workspaceMembers.createdAt), asc(workspaceMembers.personId));
  }

  async findLiveInvite(idHash: string, now: Date): Promise<WorkspaceInvite | null> {
    const [invite] = await this.db
      .select(inviteColumns)
      .from(workspaceInvites)
      .innerJoin(workspaceMembers, makerStillOwner)
      .where(and(eq(workspaceInvites.idHash, idHash), gt(workspaceInvites.expiresAt, now)));
    return invite ?? null;
  }

  async insertInvite(invite: WorkspaceInvite): Promise<boolean> {
    // Through the workspace's row: none is stored for a workspace that is gone (a plain insert would break the foreign key).
    const rows = await this.db.execute(sql`
      INSERT INTO workspace_invites (id_hash, workspace_id, role, created_at, expires_at, made_by)
      SELECT ${invite.idHash}, id, ${invite.role}, ${invite.createdAt.toISOString()}::timestamptz, ${invite.expiresAt.toISOString()}::timestamptz, ${invite.madeBy}
      FROM workspaces WHERE id = ${invite.workspaceId}
      RETURNING id_hash`);
    return rows.length > 0;
  }

  async liveInvites(workspaceId: number, now: Date): Promise<Array<WorkspaceInvite & { madeByUsername: string }>> {
    return this.db
      .select({ ...inviteColumns, madeByUsername: people.username })
      .from(workspaceInvites)
      .innerJoin(workspaceMembers, makerStillOwner)
      .innerJoin(people, eq(people.id, workspaceMembers.personId))
      .where(and(eq(workspaceInvites.workspaceId, workspaceId), gt(workspaceInvites.expiresAt, now)))
      .orderBy(asc(workspaceInvites.createdAt), asc(workspaceInvites.idHash));
  }

  async deleteInvite(workspaceId: number, idPrefix: string): Promise<boolean> {
    const rows = await this.db.execute(sql`
      DELETE FROM workspace_invites WHERE workspace_id = ${workspaceId} AND left(id_hash, ${idPrefix.length}) = ${idPrefix} RETURNING id_hash`);
    return rows.length > 0;
  }

  async accept(
    idHash: string,
    joiner: { personId: number } | { newPerson: NewPerson },
    now: Date,
  ): Promise<{ workspace: Workspace; role: WorkspaceRole; person: { id: number; username: string } } | "unknown" | "member" | "username taken"> {
    return this.db.transaction(async (tx) => {
      // Locks in the order the person's deletion and a change of members take them (people, then workspaces, then
      // members), so that none of them waits on this while this waits on it. The invite's workspace never changes:
      // read first, unlocked, to know which row to lock.
      const [asked] = await tx
        .select({ workspaceId: workspaceInvites.workspaceId })
        .from(workspaceInvites)
        .where(and(eq(workspaceInvites.idHash, idHash), gt(workspaceInvites.expiresAt, now)));
      if (!asked) return "unknown";
      let person: { id: number; username: string } | undefined;
      if ("personId" in joiner) {
        [person] = await tx.select({ id: people.id, username: people.username }).from(people).where(eq(people.id, joiner.personId)).for("share");
        if (!person) return "unknown";
      }
      const [workspace] = await tx.select().from(workspaces).where(eq(workspaces.id, asked.workspaceId)).for("share");
      if (!workspace) return "unknown";
      // The invite locked while it is used (two accepting at once use it once), and its maker's membership
      // shared-locked: a demotion or removal that committed first has taken the invite back.
      const [invite] = await tx.execute<{ role: WorkspaceRole }>(sql`
        SELECT i.role FROM workspace_invites i
        JOIN workspace_members maker ON maker.workspace_id = i.workspace_id AND maker.person_id = i.made_by AND maker.role = 'owner'
        WHERE i.id_hash = ${idHash} AND i.expires_at > ${now.toISOString()}::timestamptz
        FOR UPDATE OF i FOR SHARE OF maker`);
      if (!invite) return "unknown";
      if (!("personId" in joiner)) {
        [person] = await tx.insert(people).values(joiner.newPerson).onConflictDoNothing().returning({ id: people.id, username: people.username });
        if (!person) return "username taken";
      }
      const joined = await tx
        .insert(workspaceMembers)
        .values({ workspaceId: workspace.id, personId: person!.id, role: invite.role, createdAt: now })
        .onConflictDoNothing()
        .returning({ role: workspaceMembers.role });
      if (joined.length === 0) return "member";
      await tx.delete(workspaceInvites).where(eq(workspaceInvites.idHash, idHash));
      return { workspace, role: invite.role, person: person! };
    });
  }

  async changeMember(workspaceId: number, personId: number, role: WorkspaceRole | null): Promise<WorkspaceMember | null | "not member" | "last owner"> {
    return this.db.transaction(async (tx) => {
      // The workspace's row locked: two owners changing each other at once take turns, and one owner always stays.
      const [workspace] = await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)).for("update");
      if (!workspace) return "not member";
      const members = await tx
        .select({ personId: workspaceMembers.personId, role: workspaceMembers.role })
        .from(workspaceMembers)
        .where(eq(workspaceMembers.workspaceId, workspaceId));
      const member = members.find((one) => one.personId === personId);
      if (!member) return "not member";
      const owners = members.filter((one) => one.role === "owner").length;
      if (member.role === "owner" && role !== "owner" && owners === 1) return "last owner";
      const which = and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.personId, personId));
      if (role === null) {
        await tx.delete(workspaceMembers).where(which);
        // A member removed takes their keys of the workspace along: joining again brings none back.
        await tx.delete(apiKeys).where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.madeBy, personId)));
        return null;
      }
      await tx.update(workspaceMembers).set({ role }).where(which);
      const [changed] = await tx
        .select({ personId: workspaceMembers.personId, username: people.username, role: workspaceMembers.role, joinedAt: workspaceMembers.createdAt })
        .from(workspaceMembers)
        .innerJoin(people, eq(people.id, workspaceMembers.personId))
        .where(which);
      return changed ?? "not member";
    });
  }

  async delete(id: number): Promise<boolean | "has links"> {
    try {
      const rows = await this.db.delete(workspaces).where(eq(workspaces.id, id)).returning({ id: workspaces.id });
      return rows.length > 0;
    } catch (error) {
      // links.workspace_id refers to it with no action: a link made meanwhile.
      if (isForeignKeyViolation(error)) return "has links";
      throw error;
    }
  }

  async deleteExpiredInvites(now: Date): Promise<number> {
    const rows = await this.db.delete(workspaceInvites).where(lte(workspaceInvites.expiresAt, now)).returning({ idHash: workspaceInvites.idHash });
    return rows.length;
  }
}

/** An invite's maker, still an owner of its workspace: the join that keeps an invite live. */
const makerStillOwner = and(
  eq(workspaceMembers.workspaceId, workspaceInvites.workspaceId),
  eq(workspaceMembers.personId, workspaceInvites.madeBy),
  eq(workspaceMembers.role, "owner"),
);

/** An invite's columns, as WorkspaceInvite names them. */
const inviteColumns = {
  idHash: workspaceInvites.idHash,
  workspaceId: workspaceInvites.workspaceId,
  role: workspaceInvites.role,
  createdAt: workspaceInvites.createdAt,
  expiresAt: workspaceInvites.expiresAt,
  madeBy: workspaceInvites.madeBy,
};
