-- The visit log (issue 24): a batch of redirects adds a row here per link it
-- counted, in the transaction that counts them, instead of updating that
-- link's hourly bucket and five breakdown rows. No key, no index, no foreign
-- key: an append costs one heap tuple. A summing step, one replica at a time,
-- adds the rows to link_visit_buckets and link_visit_facts and deletes them
-- in one transaction (storage/postgres/postgres-visit-log.ts); every read of
-- the analytics sums what is left first, so reports stay exact.
CREATE TABLE IF NOT EXISTS "link_visit_log" (
  "code" text NOT NULL,
  "at" timestamp (3) with time zone NOT NULL,
  "humans" integer NOT NULL,
  "bots" integer NOT NULL,
  "facts" jsonb NOT NULL
);
