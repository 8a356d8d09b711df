-- The admin listing's search (q: a substring of the code or the long URL, any
-- case) through an FTS5 trigram index over both columns: a phrase of 3 or more
-- characters is an index lookup instead of a scan of every link. External
-- content (the rows stay in links); the triggers keep it in step, and a change
-- of access_count alone does not touch it.
CREATE VIRTUAL TABLE IF NOT EXISTS `links_search` USING fts5(code, long_url, content='links', content_rowid='rowid', tokenize='trigram');
--> statement-breakpoint
INSERT INTO `links_search` (`links_search`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `links_search_insert` AFTER INSERT ON `links` BEGIN
  INSERT INTO `links_search` (rowid, code, long_url) VALUES (new.rowid, new.code, new.long_url);
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `links_search_delete` AFTER DELETE ON `links` BEGIN
  INSERT INTO `links_search` (`links_search`, rowid, code, long_url) VALUES ('delete', old.rowid, old.code, old.long_url);
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `links_search_update` AFTER UPDATE OF code, long_url ON `links` BEGIN
  INSERT INTO `links_search` (`links_search`, rowid, code, long_url) VALUES ('delete', old.rowid, old.code, old.long_url);
  INSERT INTO `links_search` (rowid, code, long_url) VALUES (new.rowid, new.code, new.long_url);
END;
