-- A link's breakdowns of one UTC day in one row (issue 50): referrers,
-- countries, browsers, systems and devices, each value with its visits and
-- the bots among them, as one jsonb document
-- {"referrers": {"example.com": [visits, bots]}, "countries": {...}, ...}.
-- link_visit_facts held a row per (link, day, breakdown, value): a link's
-- first visit of a day inserted five rows and ten index entries, which made
-- most of the WAL of a redirect spread over many links. Now it is one row
-- and two index entries. A summing step (storage/postgres/postgres-visit-log.ts)
-- reads the day's document, adds its visits within the bound on named
-- values, and writes it back. No foreign key, as with the buckets
-- (migration 0014): deleting a link deletes its days itself.
CREATE TABLE IF NOT EXISTS "link_fact_days" (
  "code" text NOT NULL,
  "day" date NOT NULL,
  "facts" jsonb NOT NULL,
  PRIMARY KEY ("code", "day")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "link_fact_days_day_idx" ON "link_fact_days" ("day");
--> statement-breakpoint
-- The old layout keeps its rows under a new name until they are moved (a
-- step at a time, by the visit log's summing job: a year of visits is not
-- rewritten in one migration). Renamed, so that during a rolling upgrade a
-- replica of the version before, which knows only link_visit_facts, fails
-- its summing steps, rollups, reports and deletions (its redirects still
-- count, into the visit log this version sums) rather than sum days whose
-- documents it cannot see, or delete a link and leave its documents behind.
ALTER TABLE "link_visit_facts" RENAME TO "link_visit_facts_old";
--> statement-breakpoint
-- Every breakdown row, wherever it is kept: the old layout's rows not moved
-- yet, and the documents' values. Reports, rollups and deletions read this
-- view; a condition on code or day reaches each table's index.
CREATE OR REPLACE VIEW "link_fact_rows" AS
  SELECT "code", "day", "dimension", "value", "visits", "bots" FROM "link_visit_facts_old"
  UNION ALL
  SELECT f."code", f."day", d."key", v."key", (v."value" ->> 0)::bigint, (v."value" ->> 1)::bigint
  FROM "link_fact_days" f CROSS JOIN LATERAL jsonb_each(f."facts") d CROSS JOIN LATERAL jsonb_each(d."value") v;
