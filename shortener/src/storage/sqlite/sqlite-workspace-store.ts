import type { Database } from "bun:sqlite";
import { and, asc, eq, gt, lte } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { NewPerson } from "../../people/person.ts";
import type { MemberWorkspace, Workspace, WorkspaceInvite, WorkspaceMember, WorkspaceRole } from "../../people/workspace.ts";
import type { WorkspaceStore } from "../../people/workspace-store.ts";
import { isForeignKeyViolation } from "../storage-unavailable.ts";
import { people, workspaceInvites, workspaceMembers, workspaces } from "./schema.ts";

export class SqliteWorkspaceStore implements WorkspaceStore {
  constructor(private readonly db: BunSQLiteDatabase & { $client: Database }) {}

  async create(workspace: { name: string; createdAt: Date }, ownerId: number): Promise<MemberWorkspace | null> {
    const sqlite = this.db.$client;
    const at = workspace.createdAt.getTime();
    // The workspace and its owner's membership together, or neither when the person is gone.
    return sqlite.transaction((): MemberWorkspace | null => {
      if (!sqlite.query("SELECT 1 FROM people WHERE id = ?").get(ownerId)) return null;
      const made = sqlite
        .query<{ id: number }, [string, number]>("INSERT INTO workspaces (name, created_at) VALUES (?, ?) RETURNING id")
        .get(workspace.name, at)!;
      sqlite.query("INSERT INTO workspace_members (workspace_id, person_id, role, created_at) VALUES (?, ?, 'owner', ?)").run(made.id, ownerId, at);
      return { id: made.id, name: workspace.name, createdAt: workspace.createdAt, role: "owner" };
    })();
  }

  async ofPerson(personId: number): Promise<MemberWorkspace[]> {
    return this.db
      .select({ id: workspaces.id, name: workspaces.name, createdAt: workspaces.createdAt, role: workspaceMembers.role })
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .where(eq(workspaceMembers.personId, personId))
      .orderBy(asc(workspaces.id))
      .all();
  }

  async page(after: number, limit: number): Promise<Workspace[]> {
    return this.db.select().from(workspaces).where(gt(workspaces.id, after)).orderBy(asc(workspaces.id)).limit(limit).all();
  }

  async find(id: number): Promise<Workspace | null> {
    return this.db.select().from(workspaces).where(eq(workspaces.id, id)).get() ?? null;
  }

  async roleOf(workspaceId: number, personId: number): Promise<WorkspaceRole | null> {
    const row = this.db
      .select({ role: workspaceMembers.role })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.personId, personId)))
      .get();
    return row?.role ?? null;
  }

  async members(workspaceId: number): Promise<WorkspaceMember[]> {
    return this.db
      .select({ personId: workspaceMembers.personId, username: people.username, role: workspaceMembers.role, joinedAt: workspaceMembers.createdAt })
      .from(workspaceMembers)
      .innerJoin(people, eq(people.id, workspaceMembers.personId))
      .where(eq(workspaceMembers.workspaceId, workspaceId))
      .orderBy(asc(workspaceMembers.createdAt), asc(workspaceMembers.personId))
      .all();
  }

  async findLiveInvite(idHash: string, now: Date): Promise<WorkspaceInvite | null> {
    const [invite] = this.db
      .select(inviteColumns)
      .from(workspaceInvites)
      .innerJoin(workspaceMembers, makerStillOwner)
      .where(and(eq(workspaceInvites.idHash, idHash), gt(workspaceInvites.expiresAt, now)))
      .all();
    return invite ?? null;
  }

  async insertInvite(invite: WorkspaceInvite): Promise<boolean> {
    // Through the workspace's row: none is stored for a workspace that is gone (a plain insert would break the foreign key).
    const inserted = this.db.$client
      .query<unknown, [string, string, number, number, number | null, number]>(
        `INSERT INTO workspace_invites (id_hash, workspace_id, role, created_at, expires_at, made_by)
         SELECT ?, id, ?, ?, ?, ? FROM workspaces WHERE id = ?`,
      )
      .run(invite.idHash, invite.role, invite.createdAt.getTime(), invite.expiresAt.getTime(), invite.madeBy, invite.workspaceId);
    return inserted.changes > 0;
  }

  async liveInvites(workspaceId: number, now: Date): Promise<Array<WorkspaceInvite & { madeByUsername: string }>> {
    return this.db
      .select({ ...inviteColumns, madeByUsername: people.username })
      .from(workspaceInvites)
      .innerJoin(workspaceMembers, makerStillOwner)
      .innerJoin(people, eq(people.id, workspaceMembers.personId))
      .where(and(eq(workspaceInvites.workspaceId, workspaceId), gt(workspaceInvites.expiresAt, now)))
      .orderBy(asc(workspaceInvites.createdAt), asc(workspaceInvites.idHash))
      .all();
  }

  async deleteInvite(workspaceId: number, idPrefix: string): Promise<boolean> {
    const deleted = this.db.$client
      .query("DELETE FROM workspace_invites WHERE workspace_id = ? AND substr(id_hash, 1, ?) = ?")
      .run(workspaceId, idPrefix.length, idPrefix);
    return deleted.changes > 0;
  }

  async accept(
    idHash: string,
    joiner: { personId: number } | { newPerson: NewPerson },
    now: Date,
  ): Promise<{ workspace: Workspace; role: WorkspaceRole; person: { id: number; username: string } } | "unknown" | "member" | "username taken"> {
    const sqlite = this.db.$client;
    type Outcome = Awaited<ReturnType<SqliteWorkspaceStore["accept"]>>;
    // One writer at a time: the invite is read, the person made, the member added and the invite used up together.
    return sqlite
      .transaction((): Outcome => {
        const invite = sqlite
          .query<{ workspace_id: number; role: WorkspaceRole }, [string, number]>(
            `SELECT i.workspace_id, i.role FROM workspace_invites i
             JOIN workspace_members maker ON maker.workspace_id = i.workspace_id AND maker.person_id = i.made_by AND maker.role = 'owner'
             WHERE i.id_hash = ? AND i.expires_at > ?`,
          )
          .get(idHash, now.getTime());
        if (!invite) return "unknown";
        const workspace = sqlite
          .query<{ id: number; name: string; created_at: number }, [number]>("SELECT id, name, created_at FROM workspaces WHERE id = ?")
          .get(invite.workspace_id);
        if (!workspace) return "unknown";
        let person: { id: number; username: string } | null;
        if ("personId" in joiner) {
          person = sqlite.query<{ id: number; username: string }, [number]>("SELECT id, username FROM people WHERE id = ?").get(joiner.personId);
          if (!person) return "unknown";
        } else {
          const { username, passwordHash, createdAt } = joiner.newPerson;
          person = sqlite
            .query<{ id: number; username: string }, [string, string, number]>(
              "INSERT INTO people (username, password_hash, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING id, username",
            )
            .get(username, passwordHash, createdAt.getTime());
          if (!person) return "username taken";
        }
        const joined = sqlite
          .query("INSERT INTO workspace_members (workspace_id, person_id, role, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")
          .run(invite.workspace_id, person.id, invite.role, now.getTime());
        if (joined.changes === 0) return "member";
        sqlite.query("DELETE FROM workspace_invites WHERE id_hash = ?").run(idHash);
        return { workspace: { id: workspace.id, name: workspace.name, createdAt: new Date(workspace.created_at) }, role: invite.role, person };
      })
      .immediate();
  }

  async changeMember(workspaceId: number, personId: number, role: WorkspaceRole | null): Promise<WorkspaceMember | null | "not member" | "last owner"> {
    const sqlite = this.db.$client;
    // One writer at a time: the owners are counted and the member changed together, so one owner always stays.
    return sqlite
      .transaction((): WorkspaceMember | null | "not member" | "last owner" => {
        const members = sqlite
          .query<{ person_id: number; role: WorkspaceRole }, [number]>("SELECT person_id, role FROM workspace_members WHERE workspace_id = ?")
          .all(workspaceId);
        const member = members.find((one) => one.person_id === personId);
        if (!member) return "not member";
        const owners = members.filter((one) => one.role === "owner").length;
        if (member.role === "owner" && role !== "owner" && owners === 1) return "last owner";
        if (role === null) {
          sqlite.query("DELETE FROM workspace_members WHERE workspace_id = ? AND person_id = ?").run(workspaceId, personId);
          // A member removed takes their keys of the workspace along: joining again brings none back.
          sqlite.query("DELETE FROM api_keys WHERE workspace_id = ? AND made_by = ?").run(workspaceId, personId);
          return null;
        }
        sqlite.query("UPDATE workspace_members SET role = ? WHERE workspace_id = ? AND person_id = ?").run(role, workspaceId, personId);
        const changed = sqlite
          .query<{ username: string; created_at: number }, [number, number]>(
            "SELECT people.username, workspace_members.created_at FROM workspace_members JOIN people ON people.id = workspace_members.person_id WHERE workspace_id = ? AND person_id = ?",
          )
          .get(workspaceId, personId);
        return changed ? { personId, username: changed.username, role, joinedAt: new Date(changed.created_at) } : "not member";
      })
      .immediate();
  }

  async delete(id: number): Promise<boolean | "has links"> {
    try {
      return this.db.delete(workspaces).where(eq(workspaces.id, id)).returning({ id: workspaces.id }).all().length > 0;
    } catch (error) {
      // links.workspace_id refers to it with no action: a link made meanwhile.
      if (isForeignKeyViolation(error)) return "has links";
      throw error;
    }
  }

  async deleteExpiredInvites(now: Date): Promise<number> {
    return this.db.delete(workspaceInvites).where(lte(workspaceInvites.expiresAt, now)).returning({ idHash: workspaceInvites.idHash }).all().length;
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
