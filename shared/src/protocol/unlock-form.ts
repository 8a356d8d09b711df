import type { SpecialBody } from "../http/json-body.ts";
import { mediaTypeOf } from "../http/media-type.ts";
import { pathOf } from "../http/request-target.ts";

/** An unlock form's body at most: a password of 128 characters, percent-encoded, is well under it. */
export const unlockFormBytes = 4096;

/**
 * An HTML form posting a protected link's password to the short URL
 * (`POST /<code>`, form-encoded): the one body that is not JSON, read by the
 * shortener's unlock route under `unlockFormBytes`; the JSON parser leaves it
 * alone, as it leaves the redirect batch.
 */
export function isUnlockForm(request: Request): boolean {
  if (request.method !== "POST") return false;
  const mediaType = mediaTypeOf(request);
  // One segment, but not /shorten, the one API route of one segment that takes a body (JSON only).
  return mediaType === "application/x-www-form-urlencoded" && /^\/(?!shorten\/?$)[^/]+\/?$/.test(pathOf(request));
}

export const unlockFormBody: SpecialBody = { matches: isUnlockForm, readByRoute: true };
