-- Each invite names the owner who made it (docs/people.md): it can be
-- accepted only while that person is still an owner of the workspace, so an
-- owner removed or made an editor or viewer cannot come back as an owner
-- through an invite made before, and it goes with the person. Invites made
-- before this migration name no maker and are withdrawn: their owners make
-- new ones.
ALTER TABLE "workspace_invites" ADD COLUMN IF NOT EXISTS "made_by" integer REFERENCES "people" ("id") ON DELETE CASCADE;
--> statement-breakpoint
DELETE FROM "workspace_invites" WHERE "made_by" IS NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "workspace_invites_workspace_id_idx" ON "workspace_invites" ("workspace_id");
