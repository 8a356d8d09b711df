import type { Database } from "bun:sqlite";
import { asc, eq } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { MemberWorkspace, Workspace } from "../../people/workspace.ts";
import type { WorkspaceStore } from "../../people/workspace-store.ts";
import { workspaceMembers, workspaces } from "./schema.ts";

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

  async all(): Promise<Workspace[]> {
    return this.db.select().from(workspaces).orderBy(asc(workspaces.id)).all();
  }
}
