-- The visit log (issue 24), as on Postgres: a batch of redirects adds a row
-- per link it counted, in the transaction that counts them, instead of
-- updating its hourly bucket and five breakdown rows; a summing step adds
-- the rows to link_visit_buckets and link_visit_facts and deletes them in one
-- transaction (storage/sqlite/sqlite-visit-log.ts), and every read of the
-- analytics sums what is left first. A rowid table with no other index:
-- rows are appended and taken oldest first. at is ms since the epoch, facts
-- a JSON array of [breakdown, value, visits].
CREATE TABLE IF NOT EXISTS `link_visit_log` (
  `code` text NOT NULL,
  `at` integer NOT NULL,
  `humans` integer NOT NULL,
  `bots` integer NOT NULL,
  `facts` text NOT NULL
);
