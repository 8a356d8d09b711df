-- Visits that led nowhere (visits/orphan-visits.ts): a code no link has, a
-- link past its expiry or its visit cap, a wrong password. Counted per UTC
-- day, kind and referrer host, humans and bots apart; never the path, the
-- code, the address or the User-Agent. A day names at most 100 referrers
-- over all kinds, the rest are "other" (visits/named-values.ts), so a day
-- holds at most 4 x 101 rows however many hosts a flood makes up.
CREATE TABLE IF NOT EXISTS "orphan_visits" (
  "day" date NOT NULL,
  "kind" text NOT NULL,
  "referrer" text NOT NULL,
  "humans" bigint NOT NULL,
  "bots" bigint NOT NULL,
  PRIMARY KEY ("day", "kind", "referrer")
);
