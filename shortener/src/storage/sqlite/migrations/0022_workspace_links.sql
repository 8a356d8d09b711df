-- Links and API keys of workspaces (docs/people.md). A link made by a member
-- belongs to the workspace (NULL: a link of no workspace, as every link made
-- before); its listing reads the workspace's links newest first through the
-- partial index. A key made in a workspace names it and its maker: it works
-- only while the maker's role there allows its scopes, and goes with the
-- workspace or the maker.
ALTER TABLE `links` ADD COLUMN `workspace_id` integer REFERENCES `workspaces` (`id`);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `links_workspace_id_idx` ON `links` (`workspace_id`, `created_at` desc, `code`) WHERE workspace_id IS NOT NULL;
--> statement-breakpoint
ALTER TABLE `api_keys` ADD COLUMN `workspace_id` integer REFERENCES `workspaces` (`id`) ON DELETE CASCADE;
--> statement-breakpoint
ALTER TABLE `api_keys` ADD COLUMN `made_by` integer REFERENCES `people` (`id`) ON DELETE CASCADE;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `api_keys_workspace_id_idx` ON `api_keys` (`workspace_id`) WHERE workspace_id IS NOT NULL;
