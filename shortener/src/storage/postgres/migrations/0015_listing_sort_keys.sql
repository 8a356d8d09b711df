-- A counted visit updates the link's access_count and last_accessed_at.
-- While an index named either column (0004's sort indexes, 0010's
-- exhausted one), each such update was not HOT: the row's new version got
-- an entry in every index of links (five), the most WAL a redirect spread
-- over many links wrote. The listing now sorts on copies of the two,
-- sorted_access_count and sorted_last_accessed_at, which the visit log's
-- summing step refreshes (storage/postgres/postgres-visit-log.ts) and the
-- sorted pages settle first, so no page is sorted on a stale copy. A
-- capped link's copy is kept by the count write itself, so the exhausted
-- filter stays exact. The copies are indexed; the counts are not, so a
-- visit updates its row in place (on the same page: a fillfactor of 90
-- leaves room there for new row versions).
ALTER TABLE "links" ADD COLUMN IF NOT EXISTS "sorted_access_count" bigint NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN IF NOT EXISTS "sorted_last_accessed_at" timestamp (3) with time zone;
--> statement-breakpoint
UPDATE "links" SET "sorted_access_count" = "access_count", "sorted_last_accessed_at" = "last_accessed_at";
--> statement-breakpoint
ALTER TABLE "links" SET (fillfactor = 90);
--> statement-breakpoint
DROP INDEX IF EXISTS "links_access_count_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "links_last_accessed_at_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "links_exhausted_idx";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "links_sorted_access_count_idx" ON "links" ("sorted_access_count" DESC, "created_at" DESC, "code");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "links_sorted_last_accessed_at_idx" ON "links" ("sorted_last_accessed_at" DESC NULLS LAST, "created_at" DESC, "code");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "links_exhausted_idx" ON "links" ("created_at" DESC, "code") WHERE "max_visits" IS NOT NULL AND "sorted_access_count" >= "max_visits";
