-- The admin listing's filters (?tag=, ?state=) through indexes, so that a
-- rare tag or a rare state is an index lookup instead of a scan of every
-- link.
--
-- Tags: one row per link and tag in a table of their own, kept in step by a
-- trigger, not a GIN index on links.tags: a counted visit rewrites the
-- link's row, and every index of links gets a new entry each time (the
-- reason links_search is apart, migration 0006). (tag, created_at DESC,
-- code) reads a tag's links newest first, the listing's default order.
CREATE TABLE IF NOT EXISTS "link_tags" (
  "code" text COLLATE "C" NOT NULL REFERENCES "links" ("code") ON DELETE CASCADE,
  "tag" text COLLATE "C" NOT NULL,
  "created_at" timestamp (3) with time zone NOT NULL,
  PRIMARY KEY ("code", "tag")
);
--> statement-breakpoint
INSERT INTO "link_tags" ("code", "tag", "created_at")
SELECT "code", unnest("tags"), "created_at" FROM "links" ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "link_tags_tag_idx" ON "link_tags" ("tag", "created_at" DESC, "code");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "link_tags_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "link_tags" WHERE "code" = NEW."code" AND NOT ("tag" = ANY (NEW."tags"));
  INSERT INTO "link_tags" ("code", "tag", "created_at")
  SELECT NEW."code", unnest(NEW."tags"), NEW."created_at" ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "link_tags_sync" ON "links";
--> statement-breakpoint
CREATE TRIGGER "link_tags_sync" AFTER INSERT OR UPDATE OF "tags" ON "links" FOR EACH ROW EXECUTE FUNCTION "link_tags_sync"();
--> statement-breakpoint
-- States (links/destination.ts linkState), for the links that can leave
-- "active" at all: an expiry, and a cap that is used up. Partial, so links
-- without either (most) cost these indexes nothing. The expiry one carries
-- the tags, so that a tag's expired links are counted from the index alone.
-- The exhausted one holds only used-up links, newest first; the query names
-- its predicate as written here, so the planner can prove the index applies.
CREATE INDEX IF NOT EXISTS "links_expires_at_idx" ON "links" ("expires_at", "tags") WHERE "expires_at" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "links_exhausted_idx" ON "links" ("created_at" DESC, "code") WHERE "max_visits" IS NOT NULL AND "access_count" >= "max_visits";
