import {
  describeError,
  ErrorBody,
  Forbidden,
  HttpError,
  importMediaTypes,
  InvalidRequest,
  isImportUpload,
  type Client,
  type Logger,
  mediaTypeOf,
  PayloadTooLarge,
  UnsupportedMediaType,
  uploadText,
} from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import type { Server } from "elysia/universal";
import type { CredentialResolver } from "../auth/credential-resolver.ts";
import { mayDo } from "../auth/scopes.ts";
import { importing, parseWorkspaceField, workspaceWorkedOn } from "../people/request-workspace.ts";
import { requireDomainUse } from "../domains/domain-use.ts";
import { requireMayOpenVisits } from "../links/public-stats.ts";
import type { AuditLog } from "../audit/audit-log.ts";
import { actorOf } from "../auth/actor.ts";
import { changeSecurity } from "../auth/security-schemes.ts";
import { ownHosts, publicOrigin } from "../http/public-origin.ts";
import type { DomainDirectory } from "../domains/domain-directory.ts";
import { domainsSeen } from "../links/link-address.ts";
import { ImportDomains, parseUnknownDomainChoice } from "./import-domains.ts";
import { guessFormat, parseImportFormat, parserFor } from "./format-registry.ts";
import { importFormats, type ImportFormat } from "./import-record.ts";
import type { ImportEvent, Importer } from "./importer.ts";
import type { WorkspaceBudgets } from "../people/workspace-budgets.ts";
import { peopleOr } from "../auth/callers.ts";

export interface ImportRoutesDeps {
  importer: Importer;
  credentials: CredentialResolver;
  publicBaseUrl: URL | undefined;
  clientOf: (request: Request, server: Server | null) => Client;
  /** IMPORT_MAX_BYTES. */
  maxBytes: number;
  /** Which domain each row's `domain` is. */
  domains: DomainDirectory;
  /** Adds a domain a file names (`domains=create`), for the request's default host; its id. */
  addDomain: (host: string, defaultHost: string) => Promise<number>;
  /** Told of each import done (the log of the workspace it filled, or the instance's). */
  audit: AuditLog;
  /** Whether a workspace of this id exists (an admin imports into any). */
  workspaceExists: (workspaceId: number) => Promise<boolean>;
  /** A workspace's import spends a token of its budget a link stored (RATE_LIMIT_WORKSPACE), a batch at a time. */
  budgets: WorkspaceBudgets;
  /** A database failure midway is an error line; this says whether it is one (storageUnavailable). */
  translate: (error: unknown) => HttpError | undefined;
  log: Logger;
}

/**
 * `POST /admin/import?format=…&dry_run=…`: a file of links, streamed in (the
 * body is read as the import goes, never whole) and answered as it goes,
 * in NDJSON: a first line naming the format, a line per row not imported
 * (`{"line","status":"skipped"|"problem","short_url"?,"reason"}`), a
 * progress line every 10,000 lines, and a summary line last; or, if the
 * import stops midway (the file turns binary or too large, the database
 * fails), an `{"error":…}` line last. What can be known before the first
 * row is an ordinary error answer: credentials, media type, a declared
 * size over the limit, a binary start, an unknown format.
 */
export function importRoutes({
  importer,
  credentials,
  publicBaseUrl,
  clientOf,
  domains,
  addDomain,
  maxBytes,
  translate,
  log,
  workspaceExists,
  budgets,
  audit,
}: ImportRoutesDeps) {
  return new Elysia().post(
    "/admin/import",
    async ({ query, request, server }) => {
      try {
        // Importing sets codes, counts and dates as no create may: over every link, a power of admins (and keys with the
        // admin scope) only; within a workspace, of its owners and editors (request-workspace.ts).
        const credential = await credentials.resolve(request, server, peopleOr("admin"));
        const workspaceId = await workspaceWorkedOn(credential, parseWorkspaceField(query.workspace), workspaceExists, importing);
        if (!isImportUpload(request)) throw notAnImportUpload(mediaTypeOf(request));
        const declared = request.headers.get("content-length");
        if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > maxBytes) throw PayloadTooLarge.over(maxBytes);
        const dryRun = parseDryRun(query.dry_run);
        const choice = parseUnknownDomainChoice(query.domains, "domains");
        if (choice === "create" && !mayDo(credential, "admin")) throw Forbidden.because("domains=create adds domains, which only an admin does");
        const named = query.format === undefined ? undefined : parseImportFormat(query.format);
        if (request.body === null) throw InvalidRequest.because("send the file to import as the request body");
        const upload = await uploadText(request.body, maxBytes);
        const format = named ?? (await guessFormat(upload.head));
        if (format === undefined) throw InvalidRequest.because("cannot tell the file's format from its first line: name it with ?format=");
        const parser = parserFor(format);
        const trusted = clientOf(request, server).viaTrustedProxy;
        const seen = await domainsSeen(domains, publicOrigin(request, publicBaseUrl, trusted));
        const defaultHost = domains.hostOf({ host: null }, seen.requestHost);
        const importDomains = new ImportDomains({ domains: seen.snapshot, defaultHost, choice, dryRun, create: (host) => addDomain(host, defaultHost) });
        const requestHosts = [...ownHosts(request, publicBaseUrl, trusted), ...seen.snapshot.hosts];
        const domainRefusal = (domainId: number) => {
          const domain = seen.snapshot.withId(domainId) ?? { id: domainId, host: "a new domain", workspaces: [] };
          return refusalOf(() => requireDomainUse(domain, workspaceId ?? null, credential));
        };
        // A row that opens its visits to anyone asks what POST /shorten/ asks: visits:read over the link.
        const publicStatsRefusal = refusalOf(() => requireMayOpenVisits(credential, { workspaceId: workspaceId ?? null }, true));
        const run = importer.run(parser(upload.chunks), {
          dryRun,
          requestHosts,
          domains: importDomains,
          workspaceId,
          domainRefusal,
          publicStatsRefusal,
          spend: (links) => budgets.spend(credential, workspaceId, links),
        });
        // What was imported goes in the log of the workspace it went into (or the instance's), once the import is done.
        const events = loggedOnceDone(run, async (imported) => {
          if (dryRun || imported === 0) return;
          await audit.record({ workspaceId: workspaceId ?? null, actor: actorOf(credential), action: "link.import", target: `${imported} links` });
        });
        return new Response(answerLines(format, dryRun, events, translate, log), {
          headers: { "content-type": "application/x-ndjson", "cache-control": "no-store" },
        });
      } catch (error) {
        // Refused before reading it: the rest of the body is not wanted.
        void request.body?.cancel().catch(() => {});
        throw error;
      }
    },
    {
      // The body is the file, read by the route as it goes (the JSON parser leaves it alone: isImportRequest).
      // Not parse: "none", which still runs Elysia's own parsers after a global hook that passes.
      parse: () => null,
      query: t.Object({
        format: t.Optional(t.String({ description: "linkgeo-ndjson, linkgeo-csv, csv, shlink, bitly or yourls; absent: told from the first line" })),
        dry_run: t.Optional(t.String({ description: "true: check every row and which codes are taken, store nothing" })),
        workspace: t.Optional(
          t.String({
            maxLength: 12,
            description: "The workspace the links go into (its id): its owners, editors and keys with links:write import there; an admin anywhere",
          }),
        ),
        domains: t.Optional(
          t.String({
            description:
              "A row on a domain not added here: default (it goes on the default domain; the default), create (the domain is added), " +
              "refuse (the row is a problem). The summary's unknown_domains lists such domains, so a dry run shows them first.",
            examples: ["default", "create", "refuse"],
          }),
        ),
      }),
      detail: {
        summary: "Import links from a file: our export, plain CSV, Shlink, Bitly or YOURLS (an admin, or into a workspace its owners and editors)",
        description:
          "Send the file as the body (text/csv, application/x-ndjson or text/plain; UTF-8; up to IMPORT_MAX_BYTES, 1 GiB by default). " +
          "Each row is checked as a create is; codes already taken are skipped, never overwritten, so running the same file twice changes " +
          "nothing. The answer streams as NDJSON: a line per row not imported, progress lines, and a summary line (docs/migrating.md " +
          "in the repository).",
        tags: ["export and import"],
        security: changeSecurity,
        requestBody: {
          content: {
            "text/csv": { schema: { type: "string" }, example: "long_url,short_url,title,tags\nhttps://example.com/launch,launch-day,Launch day,launch\n" },
          },
        },
        responses: {
          200: {
            description: "NDJSON lines, the last a summary (or an error)",
            content: {
              "application/x-ndjson": {
                schema: { type: "string" },
                example:
                  '{"line":7,"status":"skipped","short_url":"admin","reason":"short_url \\"admin\\" is a reserved word"}\n' +
                  '{"summary":{"lines":1001,"imported":999,"skipped":1,"problems":0,"dry_run":false}}\n',
              },
            },
          },
          ...Object.fromEntries(
            [400, 401, 403, 413, 415, 429].map((status) => [status, { description: "Error", content: { "application/json": { schema: ErrorBody } } }]),
          ),
        },
      },
    },
  );
}

/**
 * 415 for a body in a media type the route does not take (an NDJSON file
 * sent as application/json, a file sent with no Content-Type): what it
 * takes, and how the format is chosen.
 */
function notAnImportUpload(mediaType: string | undefined): UnsupportedMediaType {
  // Echoed only when it has a media type's shape: a header is the client's text.
  const sent = !mediaType ? "none was sent" : /^[\w.+-]{1,64}\/[\w.+-]{1,64}$/.test(mediaType) ? `not ${mediaType}` : "not the one sent";
  return UnsupportedMediaType.because(
    `an import's Content-Type must be one of ${importMediaTypes.join(", ")} (${sent}); ` +
      `the file's format is told from its first line, or named with ?format= (one of ${importFormats.join(", ")})`,
  );
}

function parseDryRun(value: string | undefined): boolean {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  throw InvalidRequest.because("dry_run must be true or false");
}

/** The answer's lines as the import makes them: each is sent once the reader has taken the one before. */
/** The import's events as they come; `done` is told how many links it imported, once its summary has come. */
async function* loggedOnceDone(events: AsyncGenerator<ImportEvent>, done: (imported: number) => Promise<void>): AsyncGenerator<ImportEvent> {
  for await (const event of events) {
    if ("summary" in event) await done(event.summary.imported);
    yield event;
  }
}

function answerLines(
  format: ImportFormat,
  dryRun: boolean,
  events: AsyncGenerator<ImportEvent>,
  translate: (error: unknown) => HttpError | undefined,
  log: Logger,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const line = (value: unknown) => encoder.encode(`${JSON.stringify(value)}\n`);
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(line({ import: { format, dry_run: dryRun } }));
          return;
        }
        try {
          const next = await events.next();
          if (next.done) return controller.close();
          const event = next.value;
          controller.enqueue(line("outcome" in event ? event.outcome : event));
        } catch (error) {
          const known = error instanceof HttpError ? error : translate(error);
          if (!known) log.error("import failed", { error: describeError(error) });
          const body = known ? { code: known.code, message: known.message } : { code: "internal_error", message: "the import stopped on an unexpected error" };
          controller.enqueue(line({ error: body }));
          controller.close();
        }
      },
      async cancel() {
        // The client went away: the import stops where it is (its batches so far are stored).
        await events.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/** The message of the HttpError `check` throws, or undefined when it passes: a refusal a row of the report says. */
function refusalOf(check: () => void): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof HttpError) return error.message;
    throw error;
  }
}
