import { timingSafeEqual } from "node:crypto";
import { InvalidRequest } from "../http/http-error.ts";
import { parseJson } from "../core/bounded-json.ts";
import { parseJsonBody, type SpecialBody } from "../http/json-body.ts";
import { redirectBatchAnswer, redirectBatchItem, type RedirectBatchAnswer, type RedirectBatchItem } from "./redirect-batch-schemas.ts";
import { pathOf } from "../http/request-target.ts";

export type { RedirectBatchAnswer, RedirectBatchItem } from "./redirect-batch-schemas.ts";

/**
 * The internal batch of redirects between the gateway and the shortener.
 *
 * The gateway gathers the redirects (`GET /<code>`) that arrive in one turn
 * of its event loop and sends them to one shortener replica as one request;
 * the shortener counts them through its group commit and answers, item by
 * item, the very response it would have sent to that request alone. One HTTP
 * round trip then carries tens of redirects instead of one.
 *
 * Never reachable from outside: the gateway keeps the `internal` segment for
 * itself (a 404, never proxied), and the shortener serves the path only when
 * INTERNAL_SECRET is set, to callers that send it in `X-Internal-Secret`.
 */
export const redirectBatchPath = "/internal/redirects";
export const internalSecretHeader = "x-internal-secret";
/** The batch's Content-Type: the services' JSON parser leaves such a body to the batch route. */
export const redirectBatchMediaType = "application/vnd.linkgeo.redirect-batch+json";

/** Items per batch, at most: a bigger gathering leaves as several batches. */
export const maxBatchItems = 100;
/** Bytes of one batch's body, at most (the shortener's read limit for the route). */
export const maxBatchBytes = 1024 * 1024;

/** A request to the batch route in the batch's media type (the route itself checks the secret). */
export function isRedirectBatch(request: Request): boolean {
  return request.headers.get("content-type") === redirectBatchMediaType && pathOf(request) === redirectBatchPath;
}

/** Read by the batch route itself, under `maxBatchBytes`. */
export const redirectBatchBody: SpecialBody = { matches: isRedirectBatch, readByRoute: true };

/** The request body of a batch, from items already encoded with `encodeBatchItem`. */
export function batchBody(encodedItems: readonly string[]): string {
  return `{"items":[${encodedItems.join(",")}]}`;
}

export function encodeBatchItem(item: RedirectBatchItem): string {
  return JSON.stringify(item);
}

/**
 * The items of a batch request body. The shortener's only reader of it: a
 * caller with the secret is still held to the shape, so a broken gateway
 * gets a 400, never a crash.
 */
export function parseBatchItems(text: string): RedirectBatchItem[] {
  const parsed = parseJsonBody(text);
  const items = isRecord(parsed) ? parsed.items : undefined;
  if (!Array.isArray(items) || items.length === 0 || items.length > maxBatchItems) {
    throw InvalidRequest.because(`items must be an array of 1 to ${maxBatchItems} redirects`);
  }
  return items.map((item, index) => {
    if (!redirectBatchItem.Check(item)) throw InvalidRequest.because(`items.${index} is not a redirect item`);
    return item;
  });
}

/**
 * The answers of a batch, one per item in the same order, or undefined when
 * the body is not that: an upstream's answer is checked like a client's.
 */
export function parseBatchAnswers(text: string, expected: number): RedirectBatchAnswer[] | undefined {
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch {
    return undefined;
  }
  const answers = isRecord(parsed) ? parsed.answers : undefined;
  if (!Array.isArray(answers) || answers.length !== expected || !answers.every((answer) => redirectBatchAnswer.Check(answer))) return undefined;
  return answers;
}

export function answersBody(answers: readonly RedirectBatchAnswer[]): string {
  return JSON.stringify({ answers });
}

/** Compares in constant time (over hashes, so the length leaks nothing either). */
export function secretsMatch(offered: string | null, expected: string): boolean {
  if (offered === null) return false;
  const hash = (value: string) => new Bun.CryptoHasher("sha256").update(value).digest();
  return timingSafeEqual(hash(offered), hash(expected));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
