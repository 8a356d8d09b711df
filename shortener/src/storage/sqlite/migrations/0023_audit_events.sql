-- The audit log (docs/people.md): who did what to which link, key, member
-- or domain, and when; a workspace's events (workspace_id) or the
-- instance's (NULL). Read newest first per log; each log is trimmed to its
-- newest events as it is written. A workspace's events go with it.
CREATE TABLE IF NOT EXISTS `audit_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`workspace_id` integer REFERENCES `workspaces` (`id`) ON DELETE CASCADE,
	`actor_kind` text NOT NULL,
	`actor_id` text,
	`action` text NOT NULL,
	`target` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `audit_events_workspace_id_idx` ON `audit_events` (`workspace_id`, `id` desc);
