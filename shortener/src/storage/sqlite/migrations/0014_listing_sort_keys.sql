-- A counted visit updates the link's access_count and last_accessed_at;
-- while 0004's sort indexes and 0010's exhausted one named either column,
-- each visit moved the link's entry in three indexes. The listing now sorts
-- on copies of the two, which the visit log's summing step refreshes
-- (storage/sqlite/sqlite-visit-log.ts) and the sorted pages settle first;
-- a capped link's copy is kept by the count write itself, so the exhausted
-- filter stays exact (as on Postgres, migration 0015 there).
ALTER TABLE `links` ADD COLUMN `sorted_access_count` integer NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE `links` ADD COLUMN `sorted_last_accessed_at` integer;
--> statement-breakpoint
UPDATE `links` SET `sorted_access_count` = `access_count`, `sorted_last_accessed_at` = `last_accessed_at`;
--> statement-breakpoint
DROP INDEX IF EXISTS `links_access_count_idx`;
--> statement-breakpoint
DROP INDEX IF EXISTS `links_last_accessed_at_idx`;
--> statement-breakpoint
DROP INDEX IF EXISTS `links_exhausted_idx`;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `links_sorted_access_count_idx` ON `links` (`sorted_access_count` DESC, `created_at` DESC, `code`);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `links_sorted_last_accessed_at_idx` ON `links` (`sorted_last_accessed_at` DESC, `created_at` DESC, `code`);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `links_exhausted_idx` ON `links` (`created_at` DESC, `code`) WHERE `max_visits` IS NOT NULL AND `sorted_access_count` >= `max_visits`;
