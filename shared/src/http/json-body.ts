import { Elysia } from "elysia";
import { JsonTooDeep, jsonShapeOf, maxJsonDepth, parseJson } from "../core/bounded-json.ts";
import { InvalidRequest, UnsupportedMediaType } from "./http-error.ts";
import { isJsonMediaType, mediaTypeOf } from "./media-type.ts";
import { readBodyLimited } from "./read-body.ts";

export const maxBodyBytes = 64 * 1024;

/**
 * A request body the JSON parser does not treat as every other: one allowed
 * more than `maxBodyBytes` (`maxBytes`: a bulk create, a geocoding batch or
 * job), or one its route reads itself (`readByRoute`: a form, a file, the
 * redirect batch). The module that owns the route's shape declares it; each
 * service passes the ones of its own routes, so this parser knows no route.
 */
export interface SpecialBody {
  matches(request: Request): boolean;
  maxBytes?: number;
  readByRoute?: boolean;
}

/** The most bytes a request's body may have: `maxBodyBytes`, or the limit of the special body it is. */
export function bodyLimitOf(request: Request, bodies: readonly SpecialBody[]): number {
  return bodies.find((body) => body.maxBytes !== undefined && body.matches(request))?.maxBytes ?? maxBodyBytes;
}

/**
 * The one body parser of every service: JSON only (415 otherwise), at most
 * 64 KiB or a special body's own limit (413, checked on Content-Length
 * before reading and again while reading a chunked body), and malformed
 * JSON, JSON nested too deep or a body that is not an object is a 400,
 * never a 500. A body its route reads itself is left to that route.
 */
export function jsonBody(bodies: readonly SpecialBody[] = []) {
  const readByRoutes = bodies.filter((body) => body.readByRoute);
  return new Elysia().onParse({ as: "global" }, async ({ request }) => {
    if (readByRoutes.some((body) => body.matches(request))) return undefined;
    // readBodyLimited refuses a declared Content-Length over the limit before reading.
    const bytes = await readBodyLimited(request, bodyLimitOf(request, bodies));
    const text = bytes ? new TextDecoder().decode(bytes) : "";
    const mediaType = mediaTypeOf(request);
    if (text === "" && mediaType === undefined) return undefined;
    if (!isJsonMediaType(mediaType)) throw UnsupportedMediaType.notJson();
    const parsed = parseJsonBody(text);
    // Every request body of the API is an object; Elysia would coerce anything else into {}.
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw InvalidRequest.because("request body must be a JSON object");
    }
    return parsed;
  });
}

/**
 * A JSON request body's text, parsed behind the nesting bound: 400 naming
 * the bound when it nests deeper, 400 when it is not JSON. How every service
 * reads a JSON body, whether this parser or its route reads it.
 */
export function parseJsonBody(text: string): unknown {
  try {
    return parseJson(text);
  } catch (error) {
    throw error instanceof JsonTooDeep ? bodyTooDeep() : InvalidRequest.because("request body is not valid JSON");
  }
}

/**
 * The gateway's check of a JSON body it passes on: 400 naming the bound when
 * it nests deeper, so no upstream spends a moment on it. Whether it is JSON at
 * all is the service's to say.
 */
export function refuseDeepJsonBody(text: string): void {
  if (jsonShapeOf(text).tooDeep) throw bodyTooDeep();
}

/** 400 for a body nested deeper than `maxJsonDepth`, naming the bound. */
export function bodyTooDeep(): InvalidRequest {
  return InvalidRequest.because(`request body nests deeper than ${maxJsonDepth} levels of arrays and objects`);
}
