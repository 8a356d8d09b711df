import { asc, eq, sql } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { MemberWorkspace, Workspace } from "../../people/workspace.ts";
import type { WorkspaceStore } from "../../people/workspace-store.ts";
import { workspaceMembers, workspaces } from "./schema.ts";

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

  async all(): Promise<Workspace[]> {
    return this.db.select().from(workspaces).orderBy(asc(workspaces.id));
  }
}
