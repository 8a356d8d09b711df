-- "C" collation: codes are case-sensitive and sort (and lock) in byte order.
CREATE TABLE IF NOT EXISTS "links" (
  "code" text COLLATE "C" PRIMARY KEY,
  "long_url" text NOT NULL,
  "manage_token_hash" text NOT NULL,
  "access_count" bigint NOT NULL DEFAULT 0,
  "last_accessed_at" timestamp(3) with time zone,
  "created_at" timestamp(3) with time zone NOT NULL,
  "updated_at" timestamp(3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "links_created_at_idx" ON "links" ("created_at" DESC, "code");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "admins" (
  "username" text PRIMARY KEY,
  "password_hash" text NOT NULL,
  "created_at" timestamp(3) with time zone NOT NULL
);
