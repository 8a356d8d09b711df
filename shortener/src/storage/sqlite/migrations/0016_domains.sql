-- Domains (docs/domains.md): the hosts links are served on. The default
-- domain is the row of id 0, whose host is null: it is PUBLIC_BASE_URL's (or
-- the request's), and it always exists. AUTOINCREMENT: an added domain's id
-- is never used again once it is deleted.
CREATE TABLE IF NOT EXISTS `domains` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`host` text,
	`root_url` text,
	`not_found_url` text,
	`expired_url` text,
	`redirect_status` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS `domains_host_idx` ON `domains` (`host`);
--> statement-breakpoint
INSERT OR IGNORE INTO `domains` (`id`, `host`, `created_at`) VALUES (0, NULL, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
