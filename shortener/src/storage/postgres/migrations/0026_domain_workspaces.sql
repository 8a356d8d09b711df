-- Domains granted to workspaces (docs/people.md): a workspace makes links
-- on its domains and the default one only, and a domain granted to
-- workspaces is theirs (and the admins'). A grant goes with its domain and
-- with its workspace.
CREATE TABLE IF NOT EXISTS "domain_workspaces" (
	"domain_id" integer NOT NULL REFERENCES "domains" ("id") ON DELETE CASCADE,
	"workspace_id" integer NOT NULL REFERENCES "workspaces" ("id") ON DELETE CASCADE,
	PRIMARY KEY ("domain_id", "workspace_id")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "domain_workspaces_workspace_id_idx" ON "domain_workspaces" ("workspace_id");
