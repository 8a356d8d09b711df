-- People (docs/people.md): accounts that sign in and work in workspaces,
-- apart from the admins. An admin adds one (POST /admin/users). The username
-- is kept in lower case, unique; the password as a Bun.password hash
-- (argon2id), as an admin's. AUTOINCREMENT: an id is never given again.
CREATE TABLE IF NOT EXISTS `people` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS `people_username_idx` ON `people` (`username`);
