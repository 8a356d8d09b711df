-- The admin listing's filters (?tag=, ?state=) through indexes, so that a
-- rare tag or a rare state is an index lookup instead of a scan of every
-- link.
--
-- Tags: one row per link and tag, taken from the JSON array in links.tags
-- by triggers (json_each); a change of access_count alone does not touch
-- them. (tag, created_at DESC, code) reads a tag's links newest first, the
-- listing's default order. Deleting a link deletes its rows (foreign key).
CREATE TABLE IF NOT EXISTS `link_tags` (
  `code` text NOT NULL REFERENCES `links` (`code`) ON DELETE CASCADE,
  `tag` text NOT NULL,
  `created_at` integer NOT NULL,
  PRIMARY KEY (`code`, `tag`)
);
--> statement-breakpoint
INSERT OR IGNORE INTO `link_tags` (`code`, `tag`, `created_at`)
SELECT `links`.`code`, `tags`.`value`, `links`.`created_at` FROM `links`, json_each(`links`.`tags`) AS `tags`;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `link_tags_tag_idx` ON `link_tags` (`tag`, `created_at` DESC, `code`);
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `link_tags_insert` AFTER INSERT ON `links` BEGIN
  INSERT OR IGNORE INTO `link_tags` (`code`, `tag`, `created_at`) SELECT new.code, value, new.created_at FROM json_each(new.tags);
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `link_tags_update` AFTER UPDATE OF `tags` ON `links` BEGIN
  DELETE FROM `link_tags` WHERE `code` = new.code AND `tag` NOT IN (SELECT value FROM json_each(new.tags));
  INSERT OR IGNORE INTO `link_tags` (`code`, `tag`, `created_at`) SELECT new.code, value, new.created_at FROM json_each(new.tags);
END;
--> statement-breakpoint
-- States (links/destination.ts linkState), for the links that can leave
-- "active" at all: an expiry, and a cap that is used up. Partial, so links
-- without either (most) cost these indexes nothing. The expiry one carries
-- the tags, so that a tag's expired links are counted from the index alone.
-- The exhausted one holds only used-up links, newest first; the query names
-- its predicate as written here: a query uses a partial index only when its WHERE names the index's terms
-- as written here.
CREATE INDEX IF NOT EXISTS `links_expires_at_idx` ON `links` (`expires_at`, `tags`) WHERE `expires_at` IS NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `links_exhausted_idx` ON `links` (`created_at` DESC, `code`) WHERE `max_visits` IS NOT NULL AND `access_count` >= `max_visits`;
