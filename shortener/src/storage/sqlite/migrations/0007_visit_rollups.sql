-- Every link's visits summed per finished UTC day, for the every-link report
-- (GET /admin/visits/): its totals, series and breakdowns read a row per hour
-- or per day instead of a row per link and hour, and its top links a row per
-- link and day or month. The hourly visit job fills them one finished day at a time
-- (rollups through: every bucket starting before that midnight, and every
-- breakdown of a day before it, is in the sums); reports add the days since
-- from the per-link tables. Deleting a link takes its visits back out of the
-- sums in the same transaction, and its days and months with them (no
-- foreign key: checking one per summed row made summing a year 6 s slower). starts_at and through are ms since the epoch;
-- day and month (its first day) are YYYY-MM-DD.
CREATE TABLE IF NOT EXISTS `visit_rollups` (
  `id` integer PRIMARY KEY CHECK (`id` = 1),
  `through` integer NOT NULL
);
--> statement-breakpoint
INSERT OR IGNORE INTO `visit_rollups` (`id`, `through`) VALUES (1, 0);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `visit_totals` (
  `starts_at` integer PRIMARY KEY,
  `hours` integer NOT NULL,
  `humans` integer NOT NULL,
  `bots` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `visit_fact_totals` (
  `day` text NOT NULL,
  `dimension` text NOT NULL,
  `value` text NOT NULL,
  `visits` integer NOT NULL,
  PRIMARY KEY (`day`, `dimension`, `value`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `link_visit_days` (
  `code` text NOT NULL,
  `day` text NOT NULL,
  `visits` integer NOT NULL,
  PRIMARY KEY (`code`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `link_visit_days_day_idx` ON `link_visit_days` (`day`, `code`, `visits`);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `link_visit_months` (
  `code` text NOT NULL,
  `month` text NOT NULL,
  `visits` integer NOT NULL,
  PRIMARY KEY (`code`, `month`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `link_visit_months_month_idx` ON `link_visit_months` (`month`, `code`, `visits`);
