-- Link options (README: "Link options"): expiry, a visit cap, where an expired
-- link sends visitors, its own redirect status, a password (argon2id hash),
-- tags, a title, whether the query is passed on, and targeting rules (JSON).
-- Every column is empty by default: a link made before behaves as it did, and
-- adding a column with a constant default rewrites no row.
ALTER TABLE "links" ADD COLUMN IF NOT EXISTS "expires_at" timestamp (3) with time zone;
--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN IF NOT EXISTS "max_visits" integer;
--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN IF NOT EXISTS "expired_url" text;
--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN IF NOT EXISTS "redirect_status" smallint;
--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN IF NOT EXISTS "password_hash" text;
--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN IF NOT EXISTS "tags" text[] DEFAULT '{}' NOT NULL;
--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN IF NOT EXISTS "title" text;
--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN IF NOT EXISTS "forward_query" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN IF NOT EXISTS "rules" jsonb DEFAULT '[]' NOT NULL;
