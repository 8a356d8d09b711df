import { ErrorBody, InvalidRequest } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import type { Server } from "elysia/universal";
import type { CredentialResolver } from "../auth/credential-resolver.ts";
import { readSecurity } from "../auth/security-schemes.ts";
import { CodeParams } from "../links/link-schemas.ts";
import type { LinkService } from "../links/link-service.ts";
import type { LinkStore } from "../links/link-store.ts";
import { parseVisitRange } from "../visits/visit-range.ts";
import { parseReportFilters } from "../visits/report-filters.ts";
import type { VisitReports } from "../visits/visit-reports.ts";
import { LinkVisitQuery } from "../visits/visit-schemas.ts";
import type { DomainDirectory } from "../domains/domain-directory.ts";
import { domainsSeen, linkPlace, namedLinkKey } from "../links/link-address.ts";
import { exportFormats, linkExport, type ExportFormat } from "./link-export.ts";
import { visitReportCsv } from "./visit-export.ts";
import { linkOwnersOr, peopleOr } from "../auth/callers.ts";
import type { WorkspaceBudgets } from "../people/workspace-budgets.ts";
import { exporting, parseWorkspaceField, workspaceWorkedOn } from "../people/request-workspace.ts";

export interface TransferRoutesDeps {
  store: Pick<LinkStore, "exportPage">;
  links: LinkService;
  reports: VisitReports;
  credentials: CredentialResolver;
  clock: () => Date;
  /** Which domain `?domain=` names, and each exported link's host. */
  domains: DomainDirectory;
  /** The default domain's origin for a request (public-origin.ts). */
  originOf: (request: Request, server: Server | null) => string;
  /** Whether a workspace of this id exists (an admin exports any). */
  workspaceExists: (workspaceId: number) => Promise<boolean>;
  /** A workspace's export spends a token of its budget (RATE_LIMIT_WORKSPACE). */
  budgets: WorkspaceBudgets;
}

const tags = ["export and import"];
const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, ErrorBody]));
const mediaTypes: Record<ExportFormat, string> = { csv: "text/csv; charset=utf-8", ndjson: "application/x-ndjson" };

/** `GET /admin/export/links` (every link, streamed) and `GET /shorten/<code>/visits/export` (a visits report as CSV). */
export function transferRoutes({ store, links, reports, credentials, clock, domains, originOf, workspaceExists, budgets }: TransferRoutesDeps) {
  return new Elysia()
    .get(
      "/admin/export/links",
      async ({ query, request, server }) => {
        const credential = await credentials.resolve(request, server, peopleOr("links:read"));
        const workspaceId = await workspaceWorkedOn(credential, parseWorkspaceField(query.workspace), workspaceExists, exporting);
        await budgets.spend(credential, workspaceId);
        const format = parseExportFormat(query.format);
        const now = clock();
        const seen = await domainsSeen(domains, originOf(request, server));
        return new Response(linkExport(store, { format, now, workspaceId, placeOf: (key) => linkPlace(seen, key) }), {
          headers: {
            "content-type": mediaTypes[format],
            "content-disposition": `attachment; filename="links-${now.toISOString().slice(0, 10)}.${format}"`,
            "cache-control": "no-store",
          },
        });
      },
      {
        // Checked by parseExportFormat, whose 400 names the formats.
        query: t.Object({
          format: t.Optional(t.String({ description: "csv or ndjson (default)" })),
          workspace: t.Optional(
            t.String({ maxLength: 12, description: "Only this workspace's links (its id): any of its members or its keys with links:read; any for an admin" }),
          ),
        }),
        detail: {
          summary: "Every link (or a workspace's) with its options, counts and dates, streamed as CSV or NDJSON (admin, or an API key with links:read)",
          description:
            "A member or a workspace's key exports its workspace's links (a member of several names it with workspace; another workspace is a 404). " +
            "In code order, read in pages: any number of links in constant memory. The password's hash is never exported (password_protected says " +
            "whether there is one). CSV: RFC 4180, the header names the fields, tags separated by spaces, rules as JSON; a cell a spreadsheet would " +
            "run (=, +, -, @ first, a negative number aside) has a ' before it, which the import takes off again. What `POST /admin/import` " +
            "and `bun run import` read back (formats linkgeo-csv, linkgeo-ndjson).",
          tags,
          security: readSecurity,
          responses: {
            200: {
              description: "The links",
              content: {
                "application/x-ndjson": {
                  schema: { type: "string" },
                  example:
                    '{"short_url":"launch-day","long_url":"https://example.com/launch","title":"Launch day","tags":["launch"],"access_count":42,' +
                    '"created_at":"2026-11-20T09:00:00.000Z",…}\n',
                },
                "text/csv": {
                  schema: { type: "string" },
                  example:
                    "short_url,long_url,title,tags,…,access_count,created_at\nlaunch-day,https://example.com/launch,Launch day,launch,…,42,2026-11-20T09:00:00.000Z\n",
                },
              },
            },
            ...Object.fromEntries(
              [400, 401, 403, 429].map((status) => [status, { description: "Error", content: { "application/json": { schema: ErrorBody } } }]),
            ),
          },
        },
      },
    )
    .get(
      "/shorten/:short_url/visits/export",
      async ({ params, query, request, server }) => {
        const seen = await domainsSeen(domains, originOf(request, server));
        const key = namedLinkKey(seen, params.short_url, query.domain);
        const link = await links.authorized(key, await credentials.resolve(request, server, linkOwnersOr("visits:read")), "visits:read");
        if (query.format !== undefined && query.format !== "csv") throw InvalidRequest.because("format must be csv");
        const range = parseVisitRange(query, clock());
        const report = await reports.forLink(link.code, range, parseReportFilters(query, range));
        return new Response(visitReportCsv(report), {
          headers: {
            "content-type": mediaTypes.csv,
            "content-disposition": `attachment; filename="visits-${params.short_url}.csv"`,
            "cache-control": "no-store",
          },
        });
      },
      {
        params: CodeParams,
        query: t.Composite([LinkVisitQuery, t.Object({ format: t.Optional(t.String({ description: "csv (the default, and the only one)" })) })]),
        response: errors(400, 401, 403, 404),
        detail: {
          summary: "A short URL's visits report as CSV: the range, totals, the series and each breakdown's top values",
          description:
            "The same numbers as GET /shorten/<code>/visits/, for the same credentials (manage token, admin, or an API key with visits:read). " +
            "One table with the columns section, value, visits, humans, bots: rows from, to, granularity and visitors (the query), filter " +
            "(breakdown:value, empty for every visit), analytics (on, or off: then no row of numbers follows), total, one series row per bucket, " +
            "then one row per top value of referrers, countries, " +
            "browsers, os and devices, and one per bot by name (section bots). A value a spreadsheet would run (a referrer host =1+2) is written as text ('=1+2).",
          tags,
          security: readSecurity,
          responses: {
            200: {
              description: "The report as CSV",
              content: {
                "text/csv": {
                  schema: { type: "string" },
                  example:
                    "section,value,visits,humans,bots\nfrom,2026-10-27T00:00:00.000Z,,,\nto,2026-11-26T12:00:00.000Z,,,\ngranularity,day,,,\n" +
                    "visitors,all,,,\nfilter,,,,\nanalytics,on,,,\ntotal,,42,40,2\nseries,2026-11-20T00:00:00.000Z,42,40,2\nreferrers,news.ycombinator.com,30,30,0\n",
                },
              },
            },
          },
        },
      },
    );
}

function parseExportFormat(value: string | undefined): ExportFormat {
  if (value === undefined) return "ndjson";
  if (!exportFormats.includes(value as ExportFormat)) throw InvalidRequest.because(`format must be one of ${exportFormats.join(", ")}`);
  return value as ExportFormat;
}
