import { ErrorBody } from "@linkgeo/shared";
import { requireScope } from "../auth/scopes.ts";
import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import type { CredentialResolver } from "../auth/credential-resolver.ts";
import { readSecurity } from "../auth/security-schemes.ts";
import { CodeParams } from "./link-schemas.ts";
import type { LinkService } from "./link-service.ts";
import { parseReportFilters } from "../visits/report-filters.ts";
import { parseVisitRange } from "../visits/visit-range.ts";
import type { VisitReports } from "../visits/visit-reports.ts";
import { parseCodeList, parseDays } from "./daily-visits-query.ts";
import { parseOrphanVisitRange, type OrphanVisitReports } from "../visits/orphan-visit-reports.ts";
import {
  AllVisitReport,
  DailyVisits,
  DailyVisitsQuery,
  LinkVisitQuery,
  LinkVisitReport,
  OrphanVisitQuery,
  OrphanVisitReport,
  VisitQuery,
} from "../visits/visit-schemas.ts";
import type { DomainDirectory } from "../domains/domain-directory.ts";
import { UnknownDomain } from "../domains/domain-errors.ts";
import { domainsSeen, linkLabel, namedDomain, namedLinkKey } from "./link-address.ts";
import { linkKey } from "./link-key.ts";
import { LinkNotFound } from "./link-errors.ts";
import { adminsOr, linkOwnersOr } from "../auth/callers.ts";

export interface VisitRoutesDeps {
  links: LinkService;
  reports: VisitReports;
  orphans: OrphanVisitReports;
  credentials: CredentialResolver;
  clock: () => Date;
  /** Which domain `?domain=` names, and the hosts of the top links. */
  domains: DomainDirectory;
  /** The default domain's origin for a request (public-origin.ts). */
  originOf: (request: Request, server: Server | null) => string;
}

const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, ErrorBody]));

/**
 * `GET /shorten/<code>/visits/` for whoever manages the link; for admins,
 * `GET /admin/visits/`, `GET /admin/visits/daily/` (the listing's sparklines)
 * and `GET /admin/visits/orphans/` (visits that led nowhere).
 */
export function visitRoutes({ links, reports, orphans, credentials, clock, domains, originOf }: VisitRoutesDeps) {
  return new Elysia()
    .get(
      "/shorten/:short_url/visits",
      async ({ params, query, request, server }) => {
        const seen = await domainsSeen(domains, originOf(request, server));
        const key = namedLinkKey(seen, params.short_url, query.domain);
        // A link whose stats are public answers anyone; for any other, a credential is asked before the link is told of (401, then 404).
        const found = await links.find(key);
        const credential = found?.publicStats ? undefined : await credentials.resolve(request, server, linkOwnersOr("visits:read"));
        if (!found) throw LinkNotFound.for(key);
        const link = credential === undefined ? found : links.permitted(found, credential, "visits:read");
        const range = parseVisitRange(query, clock());
        return { short_url: params.short_url, ...(await reports.forLink(link.code, range, parseReportFilters(query, range))) };
      },
      {
        params: CodeParams,
        query: LinkVisitQuery,
        response: { 200: LinkVisitReport, ...errors(400, 401, 403, 404) },
        detail: {
          summary: "Visits of a short URL: totals, a series, and top referrers, countries, browsers, OS and devices",
          description:
            "Manage token, a member of the link's workspace, an admin's token or session, or a key with visits:read; anyone when the link's public_stats is true. Every visit counted with analytics on is in the totals (bots included, split here), " +
            "in the same transaction as access_count; visits counted with ANALYTICS=off and an imported count are in access_count only. " +
            'With ANALYTICS=off the report says "analytics": "off" and totals, series and top are null. ' +
            "No client address and no full User-Agent is stored: only the country and the browser, OS and device families. " +
            "Countries: [IP Geolocation by DB-IP](https://db-ip.com) (CC BY 4.0).",
          tags: ["visits"],
          security: readSecurity,
        },
      },
    )
    .get(
      "/admin/visits",
      async ({ query, request, server }) => {
        requireScope(await credentials.resolve(request, server, adminsOr("visits:read")), "visits:read", "visits across all links need an admin token");
        const range = parseVisitRange(query, clock());
        const seen = await domainsSeen(domains, originOf(request, server));
        return reports.forAllLinks(range, parseReportFilters(query, range), (key) => linkLabel(seen, key));
      },
      {
        query: VisitQuery,
        response: { 200: AllVisitReport, ...errors(400, 401, 403) },
        detail: {
          summary: "Visits across all links, with the top links (admin only)",
          description: "Countries: [IP Geolocation by DB-IP](https://db-ip.com) (CC BY 4.0).",
          tags: ["visits"],
          security: readSecurity,
        },
      },
    )
    .get(
      "/admin/visits/daily",
      async ({ query, request, server }) => {
        requireScope(
          await credentials.resolve(request, server, adminsOr("visits:read")),
          "visits:read",
          "daily visits of many links need an admin token or session",
        );
        const seen = await domainsSeen(domains, originOf(request, server));
        // A link on a domain none has has no visits: its key is one no link has.
        const named = parseCodeList(query.codes).map((link) => {
          const domain = namedDomain(seen, link.host);
          return { named: link.named, key: domain ? linkKey(domain.id, link.code) : `-~${link.code}` };
        });
        return reports.dailyPerLink(named, parseDays(query.days), clock());
      },
      {
        query: DailyVisitsQuery,
        response: { 200: DailyVisits, ...errors(400, 401, 403) },
        detail: {
          summary: "Visits per UTC day of up to 100 links, for sparklines (admin only)",
          description:
            "The same numbers, day by day, as each link's visits report from `from` to `to` by day. " +
            'Counted from the analytics: with ANALYTICS=off the answer says "analytics": "off" and links is null.',
          tags: ["visits"],
          security: readSecurity,
        },
      },
    )
    .get(
      "/admin/visits/orphans",
      async ({ query, request, server }) => {
        requireScope(
          await credentials.resolve(request, server, adminsOr("visits:read")),
          "visits:read",
          "visits that led nowhere need an admin token or session",
        );
        const range = parseOrphanVisitRange(query, clock());
        if (query.domain === undefined) return orphans.report(range);
        // One domain's: the host of `?domain=`; one never added is a 400, as for the listing.
        const domain = namedDomain(await domainsSeen(domains, originOf(request, server)), query.domain);
        if (!domain) throw UnknownDomain.named(query.domain);
        return orphans.report(range, domain.id);
      },
      {
        query: OrphanVisitQuery,
        response: { 200: OrphanVisitReport, ...errors(400, 401, 403) },
        detail: {
          summary: "Visits that led nowhere: unknown short URLs, expired or used-up links, wrong passwords (admin only)",
          description:
            "Counted per UTC day, domain, kind and referrer host, humans and bots apart; by day only (granularity=hour is 400). " +
            "Every domain together, or one with ?domain=<host> (a host never added is 400). " +
            "Never stored: the path or short URL asked for, the client address, the User-Agent. " +
            'Counted from the analytics: with ANALYTICS=off nothing is, and the report says "analytics": "off" with totals, series and top null.',
          tags: ["visits"],
          security: readSecurity,
        },
      },
    );
}
