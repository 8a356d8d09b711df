-- The visit log's facts as the JSON text a batch writes and a summing step
-- parses (visits/visit-log.ts), not jsonb: nothing queries inside them, and
-- jsonb stored each row's [breakdown, value, visits] triples in more bytes
-- than their text (measured by pg_waldump: 283 B of WAL per logged row for
-- one visit) and cost a parse on the way in and a print on the way out.
-- The log is short (a summing step empties it every 250 ms): the rewrite is
-- brief.
ALTER TABLE "link_visit_log" ALTER COLUMN "facts" TYPE text USING "facts"::text;
