-- Visits that led nowhere, per domain (docs/domains.md): the domain whose
-- host was asked. Every row counted before is the default domain's (0).
-- SQLite cannot change a primary key in place: the table (at most 4 x 101
-- rows a day and domain) is copied into its new shape.
CREATE TABLE `orphan_visits_per_domain` (
  `day` text NOT NULL,
  `domain_id` integer DEFAULT 0 NOT NULL,
  `kind` text NOT NULL,
  `referrer` text NOT NULL,
  `humans` integer NOT NULL,
  `bots` integer NOT NULL,
  PRIMARY KEY (`day`, `domain_id`, `kind`, `referrer`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `orphan_visits_per_domain` (`day`, `domain_id`, `kind`, `referrer`, `humans`, `bots`)
  SELECT `day`, 0, `kind`, `referrer`, `humans`, `bots` FROM `orphan_visits`;
--> statement-breakpoint
DROP TABLE `orphan_visits`;
--> statement-breakpoint
ALTER TABLE `orphan_visits_per_domain` RENAME TO `orphan_visits`;
