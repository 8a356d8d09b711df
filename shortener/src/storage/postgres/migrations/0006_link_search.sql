-- The admin listing's search (q: a substring of the code or the long URL, any
-- case) through trigram indexes: ILIKE '%…%' of 3 or more characters is an
-- index lookup instead of a scan of every link. pg_trgm ships with Postgres
-- (contrib) and is a trusted extension: the database's owner may create it.
--
-- The indexes are on a table of their own, kept in step by a trigger, not on
-- links: a counted visit rewrites the link's row, and every index of that
-- table gets a new entry each time (a GIN trigram entry per three letters of
-- the URL). Measured at 200,000 links: 4,400 redirects/s spread over every
-- link with the indexes on links, 7,200 with them here.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "links_search" (
  "code" text COLLATE "C" PRIMARY KEY REFERENCES "links" ("code") ON DELETE CASCADE,
  "long_url" text NOT NULL
);
--> statement-breakpoint
INSERT INTO "links_search" ("code", "long_url") SELECT "code", "long_url" FROM "links" ON CONFLICT ("code") DO NOTHING;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "links_search_code_trgm_idx" ON "links_search" USING gin ("code" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "links_search_long_url_trgm_idx" ON "links_search" USING gin ("long_url" gin_trgm_ops);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "links_search_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "links_search" ("code", "long_url") VALUES (NEW."code", NEW."long_url")
  ON CONFLICT ("code") DO UPDATE SET "long_url" = EXCLUDED."long_url";
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "links_search_sync" ON "links";
--> statement-breakpoint
CREATE TRIGGER "links_search_sync" AFTER INSERT OR UPDATE OF "long_url" ON "links" FOR EACH ROW EXECUTE FUNCTION "links_search_sync"();
