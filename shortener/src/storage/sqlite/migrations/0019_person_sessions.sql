-- A person signed in (POST /login): only the SHA-256 of the token is kept,
-- so the table alone never lets anyone in. A session goes with its person;
-- expired rows are deleted when a new session starts.
CREATE TABLE IF NOT EXISTS `person_sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`person_id` integer NOT NULL REFERENCES `people` (`id`) ON DELETE CASCADE,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `person_sessions_expires_at_idx` ON `person_sessions` (`expires_at`);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `person_sessions_person_id_idx` ON `person_sessions` (`person_id`);
