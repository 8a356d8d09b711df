-- Invites to a workspace (docs/people.md): an owner makes one, shown once;
-- only the SHA-256 of its token is kept. It is taken (deleted) when accepted,
-- and goes with its workspace; an expired one is refused and swept.
CREATE TABLE IF NOT EXISTS `workspace_invites` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`workspace_id` integer NOT NULL REFERENCES `workspaces` (`id`) ON DELETE CASCADE,
	`role` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `workspace_invites_expires_at_idx` ON `workspace_invites` (`expires_at`);
