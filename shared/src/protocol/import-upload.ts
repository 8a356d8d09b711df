import type { SpecialBody } from "../http/json-body.ts";
import { mediaTypeOf } from "../http/media-type.ts";
import { pathOf } from "../http/request-target.ts";

/** Where an admin sends a file of links to import (the shortener's POST /admin/import). */
export const importPath = "/admin/import";

/** What an import's body may be: CSV or NDJSON text (text/plain too, as some clients label any file). */
export const importMediaTypes: readonly string[] = ["text/csv", "application/x-ndjson", "application/ndjson", "application/jsonl", "text/plain"];

/** An import's body at most by default (IMPORT_MAX_BYTES, on the gateway and the shortener): far more than a million links take. */
export const defaultImportMaxBytes = 1024 * 1024 * 1024;

/**
 * A file of links posted to the import route in one of its media types: the
 * one body besides the unlock form and the redirect batch that is not JSON,
 * and the one that is streamed, not read whole. The JSON parser leaves it to
 * the route; the gateway streams it to the shortener under IMPORT_MAX_BYTES
 * instead of reading it under the 64 KiB of every other body.
 */
export function isImportUpload(request: Request): boolean {
  const mediaType = mediaTypeOf(request);
  return mediaType !== undefined && importMediaTypes.includes(mediaType) && isImportRequest(request);
}

/**
 * A POST to the import route, whatever its body's media type: the route
 * reads every one, and answers one in a media type it does not take by
 * naming those it takes, where the JSON parser would have called an NDJSON
 * file sent as application/json "not valid JSON"; the gateway streams every
 * one through, so a large file sent so gets that answer too, not a 413.
 */
export function isImportRequest(request: Request): boolean {
  return request.method === "POST" && /^\/admin\/import\/?$/.test(pathOf(request));
}

export const importUploadBody: SpecialBody = { matches: isImportRequest, readByRoute: true };
