-- Bulk inserts (an import's batch) that write their rows' search and tag
-- rows themselves, with one statement each, instead of the insert triggers
-- doing it row by row: FTS5 fed row by row from a trigger costs about
-- twice what one INSERT ... SELECT over the batch costs (bench:import).
--
-- While `links_bulk_insert` holds a row the two insert triggers stand
-- aside. Only a bulk insert writes one, and it deletes it before its
-- transaction commits (SqliteLinkStore.insertImported), so no other
-- transaction ever sees it: every other insert keeps its triggers, and a
-- bulk insert that fails rolls the row back with everything else.
CREATE TABLE IF NOT EXISTS `links_bulk_insert` (
  `since` integer NOT NULL
);
--> statement-breakpoint
DROP TRIGGER IF EXISTS `links_search_insert`;
--> statement-breakpoint
CREATE TRIGGER `links_search_insert` AFTER INSERT ON `links` WHEN NOT EXISTS (SELECT 1 FROM `links_bulk_insert`) BEGIN
  INSERT INTO `links_search` (rowid, code, long_url) VALUES (new.rowid, new.code, new.long_url);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `link_tags_insert`;
--> statement-breakpoint
CREATE TRIGGER `link_tags_insert` AFTER INSERT ON `links` WHEN NOT EXISTS (SELECT 1 FROM `links_bulk_insert`) BEGIN
  INSERT OR IGNORE INTO `link_tags` (`code`, `tag`, `created_at`) SELECT new.code, value, new.created_at FROM json_each(new.tags);
END;
