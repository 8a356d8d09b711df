-- Link options (README: "Link options"): expiry, a visit cap, where an expired
-- link sends visitors, its own redirect status, a password (argon2id hash),
-- tags and rules (JSON arrays), a title, and whether the query is passed on.
-- Every column is empty by default: a link made before behaves as it did.
ALTER TABLE `links` ADD `expires_at` integer;
--> statement-breakpoint
ALTER TABLE `links` ADD `max_visits` integer;
--> statement-breakpoint
ALTER TABLE `links` ADD `expired_url` text;
--> statement-breakpoint
ALTER TABLE `links` ADD `redirect_status` integer;
--> statement-breakpoint
ALTER TABLE `links` ADD `password_hash` text;
--> statement-breakpoint
ALTER TABLE `links` ADD `tags` text DEFAULT '[]' NOT NULL;
--> statement-breakpoint
ALTER TABLE `links` ADD `title` text;
--> statement-breakpoint
ALTER TABLE `links` ADD `forward_query` integer DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE `links` ADD `rules` text DEFAULT '[]' NOT NULL;
