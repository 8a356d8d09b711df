-- Workspaces (docs/people.md): where people work together, each member with
-- a role (owner, editor or viewer). A person who makes one is its owner. A
-- membership goes with its workspace and with its person. AUTOINCREMENT: an
-- id is never given again.
CREATE TABLE IF NOT EXISTS `workspaces` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `workspace_members` (
	`workspace_id` integer NOT NULL REFERENCES `workspaces` (`id`) ON DELETE CASCADE,
	`person_id` integer NOT NULL REFERENCES `people` (`id`) ON DELETE CASCADE,
	`role` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY (`workspace_id`, `person_id`)
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `workspace_members_person_id_idx` ON `workspace_members` (`person_id`);
