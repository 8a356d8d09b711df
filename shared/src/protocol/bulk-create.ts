import type { SpecialBody } from "../http/json-body.ts";
import { pathOf } from "../http/request-target.ts";

/**
 * `POST /shorten/bulk`: up to `maxBulkItems` creates in one request (the
 * shortener's bulk create). Its body is bigger than any other JSON body of
 * the API: 1,000 items of up to a few KiB each do not fit the 64 KiB of
 * `maxBodyBytes`. This is the one place that says how much bigger, for the
 * shortener's parser and for the gateway, which reads a body before
 * proxying it.
 */
export const maxBulkItems = 1_000;
export const maxBulkBodyBytes = 4 * 1024 * 1024;

/** A bulk create, with or without the trailing slash. */
export function isBulkCreate(request: Request): boolean {
  return request.method === "POST" && /^\/shorten\/bulk\/?$/.test(pathOf(request));
}

export const bulkCreateBody: SpecialBody = { matches: isBulkCreate, maxBytes: maxBulkBodyBytes };
