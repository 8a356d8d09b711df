-- Admins signed in to the web app by cookie. Only the SHA-256 of the session
-- id is kept, so the table alone never lets anyone in. A session goes with its
-- admin; expired rows are deleted when a new session starts.
CREATE TABLE IF NOT EXISTS "admin_sessions" (
  "id_hash" text PRIMARY KEY,
  "username" text NOT NULL REFERENCES "admins" ("username") ON DELETE CASCADE,
  "created_at" timestamp(3) with time zone NOT NULL,
  "expires_at" timestamp(3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "admin_sessions_expires_at_idx" ON "admin_sessions" ("expires_at");
