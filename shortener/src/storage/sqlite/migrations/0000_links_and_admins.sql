CREATE TABLE IF NOT EXISTS `links` (
  `code` text PRIMARY KEY NOT NULL,
  `long_url` text NOT NULL,
  `manage_token_hash` text NOT NULL,
  `access_count` integer DEFAULT 0 NOT NULL,
  `last_accessed_at` integer,
  `created_at` integer NOT NULL,
  `updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `links_created_at_idx` ON `links` (`created_at` DESC, `code`);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `admins` (
  `username` text PRIMARY KEY NOT NULL,
  `password_hash` text NOT NULL,
  `created_at` integer NOT NULL
);
