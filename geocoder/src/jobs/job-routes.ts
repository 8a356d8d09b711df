import { forwardJobsPath, geocodeJobsPath, maxJobPoints } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import type { Server } from "elysia/universal";
import { checkedLanguage } from "../geocoding/coordinates.ts";
import { FailureEnvelope } from "../geocoding/geocode-routes.ts";
import type { ForwardGeocoder } from "../geocoding/forward-geocoder.ts";
import type { ReverseGeocoder } from "../geocoding/reverse-geocoder.ts";
import { JobNotFound, quotaError } from "./job-errors.ts";
import { jobIdHash, newJobId } from "./job-id.ts";
import { checkedPoints, checkedQueries, ForwardJobRequest, JobRequest, readForwardJobInput, readJobInput } from "./job-input.ts";
import { type JobQuota, type QuotaRefusal, quotaRefusal } from "./job-quota.ts";
import { minJobBytes } from "./job-size.ts";
import { resultCsvColumns, resultFormat, resultMediaTypes, streamResults } from "./job-results.ts";
import type { JobKind, JobRecord, JobStore } from "./job-store.ts";

export interface JobRoutesDeps {
  store: JobStore;
  geocoder: Pick<ReverseGeocoder, "checkPlatform">;
  forward: Pick<ForwardGeocoder, "checkPlatform">;
  /** Told of a new job, so this replica starts on it at once. */
  wake: () => void;
  clock: () => Date;
  /** A finished or cancelled job is kept this long. */
  ttlMs: number;
  /** How much a client's jobs, and all jobs, may hold. */
  quota: JobQuota;
  /** Who sent a request, as the quotas count clients: a digest of its address, as `jobClientDigest` makes it. */
  clientOf: (request: Request, server: Server | null) => string;
}

const Job = t.Object(
  {
    id: t.String({ description: "The job's id: the only key to it and its results. Keep it: it is shown once in full, here and in Location" }),
    status: t.UnionEnum(["running", "done", "cancelled"]),
    total: t.Integer({ minimum: 1, maximum: maxJobPoints }),
    done: t.Integer({ minimum: 0, description: "Points with their result, an answer or an error" }),
    failed: t.Integer({ minimum: 0, description: "Of those, the points with an error" }),
    platform: t.Union([t.String(), t.Null()]),
    language: t.Union([t.String(), t.Null()]),
    created_at: t.String({ format: "date-time" }),
    finished_at: t.Union([t.String({ format: "date-time" }), t.Null()]),
    expires_at: t.Union([t.String({ format: "date-time" }), t.Null()], { description: "When a finished job and its results are deleted" }),
  },
  { title: "GeocodeJob" },
);

const IdParams = t.Object({ id: t.String({ description: "The job's id, as its creation answered it" }) });

const tags = ["geocoding jobs"];

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function jobView(id: string, job: JobRecord) {
  return {
    id,
    status: job.status,
    total: job.total,
    done: job.done,
    failed: job.failed,
    platform: job.platform,
    language: job.language,
    created_at: new Date(job.createdAt).toISOString(),
    finished_at: iso(job.finishedAt),
    expires_at: iso(job.expiresAt),
  };
}

/** What differs between the two kinds of job: where they live, what their items are, how they are read and checked. */
interface KindRoutes {
  path: string;
  /** "points" or "queries". */
  items: string;
  read: typeof readJobInput;
  check: typeof checkedPoints;
  checkPlatform: (platform: string | undefined) => void;
  request: typeof JobRequest | typeof ForwardJobRequest;
  /** The file's query string, as the docs show it. */
  fileQuery: Parameters<typeof t.Object>[0];
  /** How a file names its items' columns and what a line of NDJSON holds, for the docs. */
  fileFormats: string;
  example: { json: unknown; csv: string; ndjson: string };
}

/**
 * `POST /reverse-geocode/jobs` (a batch's body with up to 100,000 points,
 * or a CSV or NDJSON file), `GET /reverse-geocode/jobs/<id>` (progress),
 * `GET /reverse-geocode/jobs/<id>/results` (streamed) and `DELETE` (cancel);
 * the same under `/geocode/jobs` for forward jobs (names or addresses to
 * places). The id is the key: anyone who has it reads and cancels the job,
 * no one else can find it; a job's id under the other kind's path is a 404.
 */
export function jobRoutes(deps: JobRoutesDeps) {
  const reverse: KindRoutes = {
    path: geocodeJobsPath,
    items: "points",
    read: readJobInput,
    check: checkedPoints,
    checkPlatform: (platform) => deps.geocoder.checkPlatform(platform),
    request: JobRequest,
    fileQuery: {},
    fileFormats:
      "text/csv with a header naming the latitude and longitude columns (latitude/lat, longitude/lon/lng/long) and an optional id column (a cell's ' " +
      "before a formula, the text mark of the results CSV and of spreadsheets, is taken off), or application/x-ndjson with one " +
      '{"latitude", "longitude", "id"} per line',
    example: {
      json: { points: [{ id: "store-1", latitude: 48.8606, longitude: 2.3508 }], language: "fr" },
      csv: "id,latitude,longitude\nstore-1,48.8606,2.3508\n",
      ndjson: '{"id":"store-1","latitude":48.8606,"longitude":2.3508}\n',
    },
  };
  const forward: KindRoutes = {
    path: forwardJobsPath,
    items: "queries",
    read: readForwardJobInput,
    check: checkedQueries,
    checkPlatform: (platform) => deps.forward.checkPlatform(platform),
    request: ForwardJobRequest,
    fileQuery: {
      country: t.Optional(t.String({ description: "With a file: as GET /geocode's country, for every query" })),
      limit: t.Optional(t.String({ description: "With a file: as GET /geocode's limit, for every query" })),
    },
    fileFormats:
      "text/csv with a header naming the column to look for (q, query, address, place, name or search, any case) and an optional id column, " +
      'or application/x-ndjson with one {"q", "id", "limit", "country", "near", "bbox"} per line (all but q optional)',
    example: {
      json: {
        queries: [
          { id: "office", q: "Zürich" },
          { q: "Springfield IL", limit: 1 },
        ],
        language: "en",
      },
      csv: "id,q\noffice,Zurich\n",
      ndjson: '{"id":"office","q":"Zurich"}\n',
    },
  };
  return new Elysia().use(kindRoutes("reverse", reverse, deps)).use(kindRoutes("forward", forward, deps));
}

function kindRoutes(kind: JobKind, routes: KindRoutes, { store, wake, clock, ttlMs, quota, clientOf }: JobRoutesDeps) {
  const { path, items } = routes;
  const find = async (id: string) => {
    const job = await store.find(jobIdHash(id));
    if (!job || job.kind !== kind) throw JobNotFound.forId();
    return job;
  };
  const refuse = (refusal: QuotaRefusal | undefined) => {
    if (refusal) throw quotaError(refusal);
  };
  return new Elysia()
    .post(
      path,
      async ({ query, request, server, set }) => {
        const client = clientOf(request, server);
        // A client (or a store) with no room for a job of one point is refused before its body is read. This look
        // is not the check: jobs made meanwhile pass it together; `create` checks again as it keeps the job.
        const now = clock().getTime();
        refuse(quotaRefusal(await store.usage(client, now), { bytes: minJobBytes, waiting: 1 }, quota, { now, ttlMs }));
        const input = await routes.read(request, query);
        const language = checkedLanguage(input.language);
        routes.checkPlatform(input.platform);
        const points = routes.check(input, language);
        const id = newJobId();
        const createdAt = clock().getTime();
        refuse(
          await store.create(
            { idHash: jobIdHash(id), kind, platform: input.platform ?? null, language: language ?? null, points, createdAt, client },
            ttlMs,
            quota,
          ),
        );
        wake();
        set.status = 202;
        set.headers.location = `${path}/${id}`;
        return jobView(id, (await store.find(jobIdHash(id)))!);
      },
      {
        // The route reads its body itself (readJobInput): JSON, CSV or NDJSON, never more than a job may hold.
        // Not parse: "none", which still runs Elysia's own parsers after a global hook that passes (as the import route).
        parse: () => null,
        query: t.Object({
          platform: t.Optional(t.String({ description: `With a file: a registered geocoder for every item; default: the default chain` })),
          language: t.Optional(t.String({ description: "With a file: preferred language of the answers" })),
          ...routes.fileQuery,
        }),
        response: {
          202: Job,
          400: FailureEnvelope,
          413: FailureEnvelope,
          415: FailureEnvelope,
          429: FailureEnvelope,
          503: FailureEnvelope,
          507: FailureEnvelope,
        },
        detail: {
          summary:
            kind === "forward"
              ? "Start a forward job: up to 100,000 names or addresses answered in the background, at the providers' pace"
              : "Start a job: up to 100,000 points answered in the background, at the providers' pace",
          description:
            `The body is a batch's ({"${items}": [...], "platform", "language"}), or a file: ${routes.fileFormats}; ` +
            `a file's platform and language${kind === "forward" ? " (and country and limit)" : ""} go in the query. At most 16 MiB. ` +
            `Each of the ${items} is checked as a batch's: a bad one (or a row that cannot be read) is its own error. Answered 202 with the job and ` +
            `its id in Location; every geocoder replica then answers its ${items}, each exactly once, waiting for the providers' rate limits ` +
            "rather than falling back. The id is the only key to the job: keep it. " +
            "Each client (its address; an IPv6 one by its /64) may have 200,000 points or queries waiting and keep 1 GiB of jobs until they expire " +
            "(by default): past either, 429 quota_exceeded with Retry-After; a full store is 507 insufficient_storage.",
          tags,
          requestBody: {
            content: {
              "application/json": { schema: routes.request as unknown as Record<string, unknown>, example: routes.example.json },
              "text/csv": { schema: { type: "string" }, example: routes.example.csv },
              "application/x-ndjson": { schema: { type: "string" }, example: routes.example.ndjson },
            },
          },
        },
      },
    )
    .get(`${path}/:id`, async ({ params }) => jobView(params.id, await find(params.id)), {
      params: IdParams,
      response: { 200: Job, 404: FailureEnvelope },
      detail: { summary: kind === "forward" ? "A forward job's progress" : "A job's progress", tags },
    })
    .get(
      `${path}/:id/results`,
      async ({ params, query, request }) => {
        const format = resultFormat(query.format, request.headers.get("accept"));
        const job = await find(params.id);
        const unanswered = job.status === "cancelled" ? "cancelled" : "waiting";
        return new Response(streamResults(store, jobIdHash(params.id), { kind, total: job.total, unanswered }, format), {
          headers: { "content-type": resultMediaTypes[format], "cache-control": "no-store" },
        });
      },
      {
        params: IdParams,
        query: t.Object({
          format: t.Optional(
            t.String({
              description:
                `ndjson (the default; one object per ${kind === "forward" ? "query" : "point"}), csv (one row per ${kind === "forward" ? "query, its first place" : "point, its first address"}: ` +
                `${resultCsvColumns[kind].join(", ")}; a cell a spreadsheet would run has a ' before it) or geojson (a FeatureCollection, RFC 7946). ` +
                "Accept: text/csv or application/geo+json asks for them too",
            }),
          ),
        }),
        response: { 400: FailureEnvelope, 404: FailureEnvelope },
        detail: {
          summary: `A ${kind === "forward" ? "forward " : ""}job's results, in the ${items}' order, streamed: those still waiting say so (status cancelled in a cancelled job: never asked)`,
          tags,
          responses: {
            200: {
              description: `The ${items} and their results`,
              content: {
                "application/x-ndjson": { schema: { type: "string" } },
                "text/csv": { schema: { type: "string" } },
                "application/geo+json": { schema: { type: "object" } },
              },
            },
          },
        },
      },
    )
    .delete(
      `${path}/:id`,
      async ({ params }) => {
        await find(params.id);
        const job = await store.cancel(jobIdHash(params.id), clock().getTime(), ttlMs);
        if (!job) throw JobNotFound.forId();
        return jobView(params.id, job);
      },
      {
        params: IdParams,
        response: { 200: Job, 404: FailureEnvelope },
        detail: {
          summary: `Cancel a ${kind === "forward" ? "forward " : ""}job: its ${items} still waiting are never asked; its results so far stay until it expires`,
          tags,
        },
      },
    );
}
