-- The admin listing's two other orders (storage/link-order-sql.ts), read in
-- index order rather than sorting every link for each page. SQLite sorts
-- NULLs first ascending, so last in a DESC index: never-visited links last.
CREATE INDEX IF NOT EXISTS `links_access_count_idx` ON `links` (`access_count` DESC, `created_at` DESC, `code`);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `links_last_accessed_at_idx` ON `links` (`last_accessed_at` DESC, `created_at` DESC, `code`);
