import { describeBodyFailure, type HttpError, InvalidRequest } from "@linkgeo/shared";
import { TypeCompiler } from "elysia/type-system";
import { unknownFields } from "../http/unknown-fields.ts";
import { CreateLinkBody } from "./link-schemas.ts";
import type { CreateRequest } from "./link-service.ts";

const createBody = TypeCompiler.Compile(CreateLinkBody);

/**
 * One item of a bulk create, taken as POST /shorten/ takes its body: the
 * same schema, failing with the same 400 (an unknown field first, as the
 * route's hook refuses it; what is checked beyond the types
 * is LinkService's, for both), so an item is answered as it would be alone.
 */
export function bulkItem(item: unknown): CreateRequest | HttpError {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return InvalidRequest.because("request body must be a JSON object");
  const unknown = unknownFields(item, CreateLinkBody);
  if (unknown) return unknown;
  if (!createBody.Check(item)) return InvalidRequest.because(describeBodyFailure(createBody, item));
  const { long_url: longUrl, short_url: alias, domain, workspace, ...options } = item;
  return { longUrl, alias, domain, workspace, options };
}
