-- A link's breakdowns of one UTC day in one row (issue 50), as Postgres'
-- migration 0030 keeps them: a JSON document
-- {"referrers": {"example.com": [visits, bots]}, "countries": {...}, ...}
-- instead of a row per (link, day, breakdown, value), so a link's first
-- visit of a day writes one row, not five. The summing step
-- (storage/sqlite/sqlite-visit-log.ts) reads, adds and writes it back.
CREATE TABLE IF NOT EXISTS `link_fact_days` (
  `code` text NOT NULL REFERENCES `links` (`code`) ON DELETE CASCADE,
  `day` text NOT NULL,
  `facts` text NOT NULL,
  PRIMARY KEY (`code`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `link_fact_days_day_idx` ON `link_fact_days` (`day`);
--> statement-breakpoint
-- The old layout keeps its rows under a new name until the summing job has
-- moved them, a step at a time (why renamed: Postgres' migration 0030).
ALTER TABLE `link_visit_facts` RENAME TO `link_visit_facts_old`;
--> statement-breakpoint
-- Every breakdown row, wherever it is kept: the old layout's rows not moved
-- yet, and the documents' values.
CREATE VIEW IF NOT EXISTS `link_fact_rows` AS
  SELECT `code`, `day`, `dimension`, `value`, `visits`, `bots` FROM `link_visit_facts_old`
  UNION ALL
  SELECT f.`code`, f.`day`, d.`key`, v.`key`, json_extract(v.`value`, '$[0]'), json_extract(v.`value`, '$[1]')
  FROM `link_fact_days` f, json_each(f.`facts`) d, json_each(d.`value`) v;
