-- Visit analytics, per link: humans and bots per UTC hour (a whole UTC day once
-- folded, hours = 24), and per UTC day the visits by referrer, country,
-- browser, OS and device. Written in the same transaction as access_count.
-- starts_at is ms since the epoch; day is YYYY-MM-DD.
CREATE TABLE IF NOT EXISTS `link_visit_buckets` (
  `code` text NOT NULL REFERENCES `links` (`code`) ON DELETE CASCADE,
  `starts_at` integer NOT NULL,
  `hours` integer NOT NULL,
  `humans` integer NOT NULL,
  `bots` integer NOT NULL,
  PRIMARY KEY (`code`, `starts_at`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `link_visit_buckets_starts_at_idx` ON `link_visit_buckets` (`starts_at`);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `link_visit_facts` (
  `code` text NOT NULL REFERENCES `links` (`code`) ON DELETE CASCADE,
  `day` text NOT NULL,
  `dimension` text NOT NULL,
  `value` text NOT NULL,
  `visits` integer NOT NULL,
  PRIMARY KEY (`code`, `day`, `dimension`, `value`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `link_visit_facts_day_idx` ON `link_visit_facts` (`day`);
