-- Visits that led nowhere, per domain (docs/domains.md): the domain whose
-- host was asked. Every row counted before is the default domain's (0). The
-- table is small (at most 4 x 101 rows a day and domain), so its primary key
-- is built again at once. A replica of the release before, still running
-- meanwhile, finds no key for its ON CONFLICT (day, kind, referrer): its
-- writes of these counts fail, are logged and dropped, and its redirects
-- answer as ever.
ALTER TABLE "orphan_visits" ADD COLUMN IF NOT EXISTS "domain_id" integer NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "orphan_visits" DROP CONSTRAINT IF EXISTS "orphan_visits_pkey";
--> statement-breakpoint
ALTER TABLE "orphan_visits" ADD CONSTRAINT "orphan_visits_pkey" PRIMARY KEY ("day", "domain_id", "kind", "referrer");
