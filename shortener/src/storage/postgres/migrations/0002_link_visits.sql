-- Visit analytics, per link: humans and bots per UTC hour (a whole UTC day once
-- folded, hours = 24), and per UTC day the visits by referrer, country,
-- browser, OS and device. Written in the same transaction as access_count.
CREATE TABLE IF NOT EXISTS "link_visit_buckets" (
  "code" text NOT NULL REFERENCES "links" ("code") ON DELETE CASCADE,
  "starts_at" timestamp(3) with time zone NOT NULL,
  "hours" smallint NOT NULL,
  "humans" bigint NOT NULL,
  "bots" bigint NOT NULL,
  PRIMARY KEY ("code", "starts_at")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "link_visit_buckets_starts_at_idx" ON "link_visit_buckets" ("starts_at");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "link_visit_facts" (
  "code" text NOT NULL REFERENCES "links" ("code") ON DELETE CASCADE,
  "day" date NOT NULL,
  "dimension" text NOT NULL,
  "value" text NOT NULL,
  "visits" bigint NOT NULL,
  PRIMARY KEY ("code", "day", "dimension", "value")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "link_visit_facts_day_idx" ON "link_visit_facts" ("day");
