import type { SpecialBody } from "../http/json-body.ts";
import { pathOf } from "../http/request-target.ts";

/**
 * `POST /reverse-geocode/batch`: up to `maxBatchPoints` points in one
 * request (the geocoder's batch). 1,000 points with ids of up to 200
 * characters do not fit the 64 KiB of `maxBodyBytes`; this is the one place
 * that says how much bigger its body may be, for the geocoder's parser and
 * for the gateway, which reads a body before proxying it.
 */
export const maxBatchPoints = 1_000;
export const maxReverseBatchBodyBytes = 512 * 1024;

/** A reverse-geocoding batch, with or without the trailing slash. */
export function isReverseBatch(request: Request): boolean {
  return request.method === "POST" && /^\/reverse-geocode\/batch\/?$/.test(pathOf(request));
}

export const reverseBatchBody: SpecialBody = { matches: isReverseBatch, maxBytes: maxReverseBatchBodyBytes };

/**
 * `POST /geocode/batch`: up to `maxBatchPoints` forward queries (a text of up
 * to 200 characters and an id of up to 200 each), so a bigger body still.
 */
export const maxForwardBatchBodyBytes = 1024 * 1024;

/** A forward-geocoding batch, with or without the trailing slash. */
export function isForwardBatch(request: Request): boolean {
  return request.method === "POST" && /^\/geocode\/batch\/?$/.test(pathOf(request));
}

export const forwardBatchBody: SpecialBody = { matches: isForwardBatch, maxBytes: maxForwardBatchBodyBytes };
