import { Elysia } from "elysia";
import { isBulkCreate, maxBulkBodyBytes } from "./bulk-create.ts";
import { isJobCreation, maxJobBodyBytes } from "./geocode-jobs.ts";
import { InvalidRequest, UnsupportedMediaType } from "./http-error.ts";
import { readBodyLimited } from "./read-body.ts";
import { isImportUpload } from "./import-upload.ts";
import { isRedirectBatch } from "./redirect-batch.ts";
import { isReverseBatch, maxReverseBatchBodyBytes } from "./reverse-batch.ts";
import { isUnlockForm } from "./unlock-form.ts";

export const maxBodyBytes = 64 * 1024;

/** The most bytes a request's body may have: `maxBodyBytes`, but a bulk create's, a geocoding batch's or a geocoding job's own limit for one. */
export function bodyLimitOf(request: Request): number {
  if (isBulkCreate(request)) return maxBulkBodyBytes;
  if (isReverseBatch(request)) return maxReverseBatchBodyBytes;
  if (isJobCreation(request)) return maxJobBodyBytes;
  return maxBodyBytes;
}

/**
 * The one body parser of every service: JSON only (415 otherwise), at most
 * 64 KiB, 4 MiB for a bulk create, 512 KiB for a geocoding batch, 16 MiB
 * for a geocoding job (bodyLimitOf; 413, checked on Content-Length before
 * reading and again while reading a chunked body), and malformed JSON or a
 * body that is not an object is a 400, never a 500. The exceptions are the
 * shortener's redirect batch, a protected link's unlock form, an import's
 * file and a geocoding job's body (JSON or a file), which their routes read
 * under limits of their own.
 */
export const jsonBody = new Elysia({ name: "json-body" }).onParse({ as: "global" }, async ({ request }) => {
  if (isRedirectBatch(request) || isUnlockForm(request) || isImportUpload(request) || isJobCreation(request)) return undefined;
  // readBodyLimited refuses a declared Content-Length over the limit before reading.
  const bytes = await readBodyLimited(request, bodyLimitOf(request));
  const text = bytes ? new TextDecoder().decode(bytes) : "";
  const mediaType = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (text === "" && mediaType === undefined) return undefined;
  if (mediaType !== "application/json" && !mediaType?.endsWith("+json")) throw UnsupportedMediaType.notJson();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw InvalidRequest.because("request body is not valid JSON");
  }
  // Every request body of the API is an object; Elysia would coerce anything else into {}.
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw InvalidRequest.because("request body must be a JSON object");
  }
  return parsed;
});
