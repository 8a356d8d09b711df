import type { SpecialBody } from "../http/json-body.ts";
import { pathOf } from "../http/request-target.ts";
import { jobPaths } from "../wire/geocode-jobs-path.ts";

/**
 * `POST /reverse-geocode/jobs` and `POST /geocode/jobs`: up to `maxJobPoints`
 * points (or queries) answered in the background, at the providers' pace.
 * Its body (JSON like a batch's, or a
 * CSV or NDJSON file) may be `maxJobBodyBytes`: 100,000 points with ids of
 * up to about 100 characters. The one place that says so, for the
 * geocoder's parser and for the gateway, which reads a body before
 * proxying it.
 */
export const maxJobPoints = 100_000;
export const maxJobBodyBytes = 16 * 1024 * 1024;

/** What a job's file may be sent as, besides JSON: CSV or NDJSON text (text/plain too, as some clients label any file). */
export const jobFileMediaTypes: readonly string[] = ["text/csv", "application/x-ndjson", "application/ndjson", "application/jsonl", "text/plain"];

/** A job being made (either kind), with or without the trailing slash: its route reads the body (JSON or a file) itself. */
export function isJobCreation(request: Request): boolean {
  if (request.method !== "POST") return false;
  const path = pathOf(request);
  return jobPaths.some((jobs) => path === jobs || path === `${jobs}/`);
}

/** Up to `maxJobBodyBytes` (the gateway reads it whole before proxying), read by the job route itself (JSON or a file). */
export const jobCreationBody: SpecialBody = { matches: isJobCreation, maxBytes: maxJobBodyBytes, readByRoute: true };
