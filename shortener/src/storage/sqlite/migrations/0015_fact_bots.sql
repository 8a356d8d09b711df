-- The breakdowns keep, beside each value's visits, the bots among them, so
-- a report can rank the values of humans only and list the bots apart
-- (visits/visit-reports.ts). Days counted before this migration knew no
-- split: the "bot" device, which only bots have, gets its visits as bots;
-- every other value's visits count as humans (docs/shortener.md says so).
-- The default keeps a replica of the version before, still summing during
-- a rolling upgrade, writing rows the reports read.
ALTER TABLE `link_visit_facts` ADD COLUMN `bots` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `visit_fact_totals` ADD COLUMN `bots` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `link_visit_facts` SET `bots` = `visits` WHERE `dimension` = 'devices' AND `value` = 'bot';
--> statement-breakpoint
UPDATE `visit_fact_totals` SET `bots` = `visits` WHERE `dimension` = 'devices' AND `value` = 'bot';
