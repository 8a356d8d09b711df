-- Abuse protection, second part (docs/abuse.md). A link may be held:
-- `quarantined` (its visitors see a warning) or `disabled` (it is gone),
-- with why (`hold_reason`: the list that matched, or `report`). Who made a
-- link (`created_by`: `api-key:<id>`, `person:<username>`, `admin:<name>`;
-- NULL for anyone else), for the reports' queue.
ALTER TABLE `links` ADD `hold` text;
--> statement-breakpoint
ALTER TABLE `links` ADD `hold_reason` text;
--> statement-breakpoint
ALTER TABLE `links` ADD `created_by` text;
--> statement-breakpoint
-- The listing's ?state=quarantined|disabled, newest first: held links are few.
CREATE INDEX IF NOT EXISTS `links_hold_idx` ON `links` (`hold`, `created_at` desc, `code`) WHERE hold IS NOT NULL;
--> statement-breakpoint
-- The ban list lives beside the allow-list: an entry is one or the other.
ALTER TABLE `allow_list` ADD `verdict` text DEFAULT 'allow' NOT NULL;
--> statement-breakpoint
DROP INDEX IF EXISTS `allow_list_kind_value_idx`;
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS `allow_list_verdict_kind_value_idx` ON `allow_list` (`verdict`, `kind`, `value`);
--> statement-breakpoint
-- Reports of harmful links, from anyone: a reason from a short list and a
-- note; never who sent it. A deleted link's reports go with it.
CREATE TABLE IF NOT EXISTS `reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL REFERENCES `links` (`code`) ON DELETE CASCADE,
	`reason` text NOT NULL,
	`note` text,
	`created_at` integer NOT NULL,
	`resolution` text,
	`resolved_at` integer
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `reports_open_idx` ON `reports` (`id`) WHERE `resolution` IS NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `reports_code_idx` ON `reports` (`code`);
--> statement-breakpoint
-- The pass that checks existing links against the lists: one row, whose
-- lease lets one replica run it at a time, and whose cursor lets the next
-- holder go on where a stopped one left off.
CREATE TABLE IF NOT EXISTS `threat_recheck` (
	`id` integer PRIMARY KEY NOT NULL,
	`holder` text,
	`lease_until` integer,
	`cursor` text,
	`next_run_at` integer NOT NULL
);
