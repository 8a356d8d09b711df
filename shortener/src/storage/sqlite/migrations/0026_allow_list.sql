-- The allow-list (docs/abuse.md): a domain or a URL the threat feeds may
-- list, allowed all the same (a false positive). `value` is the key the
-- feeds are matched by: a host name, or a normalised URL.
CREATE TABLE IF NOT EXISTS `allow_list` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`value` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS `allow_list_kind_value_idx` ON `allow_list` (`kind`, `value`);
