-- The summing step (migration 0013) adds rows to link_visit_buckets and
-- link_visit_facts while batches of redirects hold their links' rows. Each
-- row's foreign-key check took KEY SHARE on its links row, and under load
-- over many links, batches on three replicas deadlocked over those tuple
-- locks. The rows keep no foreign key: deleting a link deletes them itself
-- (storage/postgres/postgres-visit-log.ts, deleteLinkVisits) under the visit
-- log's lock, and the summing step adds rows only for links that exist.
ALTER TABLE "link_visit_buckets" DROP CONSTRAINT IF EXISTS "link_visit_buckets_code_fkey";
--> statement-breakpoint
ALTER TABLE "link_visit_facts" DROP CONSTRAINT IF EXISTS "link_visit_facts_code_fkey";
