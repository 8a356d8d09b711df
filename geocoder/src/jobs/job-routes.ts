import { geocodeJobsPath, maxJobPoints } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import type { Server } from "elysia/universal";
import { checkedLanguage } from "../geocoding/coordinates.ts";
import { FailureEnvelope } from "../geocoding/geocode-routes.ts";
import type { ReverseGeocoder } from "../geocoding/reverse-geocoder.ts";
import { JobNotFound, quotaError } from "./job-errors.ts";
import { jobIdHash, newJobId } from "./job-id.ts";
import { checkedPoints, JobRequest, readJobInput } from "./job-input.ts";
import { type JobQuota, type QuotaRefusal, quotaRefusal } from "./job-quota.ts";
import { minJobBytes } from "./job-size.ts";
import { resultCsvColumns, resultFormat, resultMediaTypes, streamResults } from "./job-results.ts";
import type { JobRecord, JobStore } from "./job-store.ts";

export interface JobRoutesDeps {
  store: JobStore;
  geocoder: Pick<ReverseGeocoder, "checkPlatform">;
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

/**
 * `POST /reverse-geocode/jobs` (a batch's body with up to 100,000 points,
 * or a CSV or NDJSON file), `GET /reverse-geocode/jobs/<id>` (progress),
 * `GET /reverse-geocode/jobs/<id>/results` (streamed) and `DELETE` (cancel).
 * The id is the key: anyone who has it reads and cancels the job, no one
 * else can find it.
 */
export function jobRoutes({ store, geocoder, wake, clock, ttlMs, quota, clientOf }: JobRoutesDeps) {
  const find = async (id: string) => {
    const job = await store.find(jobIdHash(id));
    if (!job) throw JobNotFound.forId();
    return job;
  };
  const refuse = (refusal: QuotaRefusal | undefined) => {
    if (refusal) throw quotaError(refusal);
  };
  return new Elysia()
    .post(
      geocodeJobsPath,
      async ({ query, request, server, set }) => {
        const client = clientOf(request, server);
        // A client (or a store) with no room for a job of one point is refused before its body is read. This look
        // is not the check: jobs made meanwhile pass it together; `create` checks again as it keeps the job.
        const now = clock().getTime();
        refuse(quotaRefusal(await store.usage(client, now), { bytes: minJobBytes, waiting: 1 }, quota, { now, ttlMs }));
        const input = await readJobInput(request, query);
        const language = checkedLanguage(input.language);
        geocoder.checkPlatform(input.platform);
        const points = checkedPoints(input, language);
        const id = newJobId();
        const createdAt = clock().getTime();
        refuse(
          await store.create({ idHash: jobIdHash(id), platform: input.platform ?? null, language: language ?? null, points, createdAt, client }, ttlMs, quota),
        );
        wake();
        set.status = 202;
        set.headers.location = `${geocodeJobsPath}/${id}`;
        return jobView(id, (await store.find(jobIdHash(id)))!);
      },
      {
        // The route reads its body itself (readJobInput): JSON, CSV or NDJSON, never more than a job may hold.
        // Not parse: "none", which still runs Elysia's own parsers after a global hook that passes (as the import route).
        parse: () => null,
        query: t.Object({
          platform: t.Optional(t.String({ description: "With a file: a registered geocoder for every point; default: the default chain" })),
          language: t.Optional(t.String({ description: "With a file: preferred language of the answers" })),
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
          summary: "Start a job: up to 100,000 points answered in the background, at the providers' pace",
          description:
            'The body is a batch\'s ({"points": [...], "platform", "language"}), or a file: text/csv with a header naming the latitude and ' +
            "longitude columns (latitude/lat, longitude/lon/lng/long) and an optional id column (a cell's ' before a formula, the text mark of " +
            "the results CSV and of spreadsheets, is taken off), or application/x-ndjson with one " +
            '{"latitude", "longitude", "id"} per line; a file\'s platform and language go in the query. At most 16 MiB. ' +
            "Each point is checked as a batch's: a bad one (or a row that cannot be read) is that point's error. Answered 202 with the job and " +
            "its id in Location; every geocoder replica then answers its points, each exactly once, waiting for the providers' rate limits " +
            "rather than falling back. The id is the only key to the job: keep it. " +
            "Each client (its address; an IPv6 one by its /64) may have 200,000 points waiting and keep 1 GiB of jobs until they expire " +
            "(by default): past either, 429 quota_exceeded with Retry-After; a full store is 507 insufficient_storage.",
          tags,
          requestBody: {
            content: {
              "application/json": {
                schema: JobRequest as unknown as Record<string, unknown>,
                example: { points: [{ id: "store-1", latitude: 48.8606, longitude: 2.3508 }], language: "fr" },
              },
              "text/csv": { schema: { type: "string" }, example: "id,latitude,longitude\nstore-1,48.8606,2.3508\n" },
              "application/x-ndjson": { schema: { type: "string" }, example: '{"id":"store-1","latitude":48.8606,"longitude":2.3508}\n' },
            },
          },
        },
      },
    )
    .get(`${geocodeJobsPath}/:id`, async ({ params }) => jobView(params.id, await find(params.id)), {
      params: IdParams,
      response: { 200: Job, 404: FailureEnvelope },
      detail: { summary: "A job's progress", tags },
    })
    .get(
      `${geocodeJobsPath}/:id/results`,
      async ({ params, query, request }) => {
        const format = resultFormat(query.format, request.headers.get("accept"));
        const job = await find(params.id);
        const unanswered = job.status === "cancelled" ? "cancelled" : "waiting";
        return new Response(streamResults(store, jobIdHash(params.id), { total: job.total, unanswered }, format), {
          headers: { "content-type": resultMediaTypes[format], "cache-control": "no-store" },
        });
      },
      {
        params: IdParams,
        query: t.Object({
          format: t.Optional(
            t.String({
              description:
                "ndjson (the default; one object per point), csv (one row per point, its first address: " +
                `${resultCsvColumns.join(", ")}; a cell a spreadsheet would run has a ' before it) or geojson (a FeatureCollection, RFC 7946). ` +
                "Accept: text/csv or application/geo+json asks for them too",
            }),
          ),
        }),
        response: { 400: FailureEnvelope, 404: FailureEnvelope },
        detail: {
          summary: "A job's results, in the points' order, streamed: those still waiting say so (status cancelled in a cancelled job: never asked)",
          tags,
          responses: {
            200: {
              description: "The points and their results",
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
      `${geocodeJobsPath}/:id`,
      async ({ params }) => {
        const job = await store.cancel(jobIdHash(params.id), clock().getTime(), ttlMs);
        if (!job) throw JobNotFound.forId();
        return jobView(params.id, job);
      },
      {
        params: IdParams,
        response: { 200: Job, 404: FailureEnvelope },
        detail: { summary: "Cancel a job: its points still waiting are never asked; its results so far stay until it expires", tags },
      },
    );
}
