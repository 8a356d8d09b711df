import { HttpError } from "@linkgeo/shared";
import { parseInstant } from "../http/instant.ts";
import type { LinkRule, RedirectStatus } from "../links/link-options.ts";
import type { ImportRecord, ImportRow } from "./import-record.ts";

/**
 * One link of our own export (exported-link.ts) as an import record, its
 * fields as JSON has them (the CSV parser turns its text into these first).
 * Only the types are checked here, each problem naming its field; what the
 * values may be (URLs, tags, rules) is the importer's check, the same as a
 * create's. `state` is ignored: it follows from the rest.
 */
export function importRecordOf(line: number, value: unknown): ImportRow {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { line, problem: "a line must be a JSON object" };
  const fields = value as Record<string, unknown>;
  try {
    const record: ImportRecord = { line, longUrl: required(fields, "long_url") };
    const code = optionalString(fields, "short_url");
    if (code !== undefined && code !== null && code !== "") record.code = code;
    const domain = optionalString(fields, "domain");
    if (domain !== undefined && domain !== null && domain !== "") record.domain = domain;
    const title = optionalString(fields, "title");
    if (title !== undefined && title !== null && title !== "") record.title = title;
    if (fields.tags !== undefined && fields.tags !== null) {
      if (!Array.isArray(fields.tags) || !fields.tags.every((tag) => typeof tag === "string")) throw new FieldProblem("tags must be a list of strings");
      record.tags = fields.tags;
    }
    const createdAt = optionalInstant(fields, "created_at");
    if (createdAt) record.createdAt = createdAt;
    const updatedAt = optionalInstant(fields, "updated_at");
    if (updatedAt) record.updatedAt = updatedAt;
    const lastAccessedAt = optionalInstant(fields, "last_accessed_at");
    if (lastAccessedAt !== undefined) record.lastAccessedAt = lastAccessedAt;
    const accessCount = optionalWholeNumber(fields, "access_count");
    if (accessCount !== undefined && accessCount !== null) record.accessCount = accessCount;
    const expiresAt = optionalInstant(fields, "expires_at");
    if (expiresAt !== undefined) record.expiresAt = expiresAt;
    const maxVisits = optionalWholeNumber(fields, "max_visits");
    if (maxVisits !== undefined) record.maxVisits = maxVisits;
    const expiredUrl = optionalString(fields, "expired_url");
    if (expiredUrl !== undefined) record.expiredUrl = expiredUrl === "" ? null : expiredUrl;
    const redirectStatus = optionalWholeNumber(fields, "redirect_status");
    if (redirectStatus !== undefined) record.redirectStatus = redirectStatus as RedirectStatus | null;
    const forwardQuery = optionalBoolean(fields, "forward_query");
    if (forwardQuery !== undefined) record.forwardQuery = forwardQuery;
    const publicStats = optionalBoolean(fields, "public_stats");
    if (publicStats !== undefined) record.publicStats = publicStats;
    const passwordProtected = optionalBoolean(fields, "password_protected");
    if (passwordProtected !== undefined) record.passwordProtected = passwordProtected;
    if (fields.rules !== undefined && fields.rules !== null) {
      if (!Array.isArray(fields.rules)) throw new FieldProblem("rules must be a list");
      // Their shape is checked by the importer, as a create checks them (parseOptions).
      record.rules = fields.rules as LinkRule[];
    }
    return record;
  } catch (error) {
    if (error instanceof FieldProblem) return { line, problem: error.message };
    throw error;
  }
}

/** A field of the wrong type: the line's problem. */
class FieldProblem extends Error {}

function required(fields: Record<string, unknown>, name: string): string {
  const value = fields[name];
  if (typeof value !== "string" || value === "") throw new FieldProblem(`${name} is missing`);
  return value;
}

function optionalString(fields: Record<string, unknown>, name: string): string | null | undefined {
  const value = fields[name];
  if (value === undefined || value === null || typeof value === "string") return value;
  throw new FieldProblem(`${name} must be a string`);
}

function optionalWholeNumber(fields: Record<string, unknown>, name: string): number | null | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return value;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw new FieldProblem(`${name} must be a whole number`);
  return value;
}

function optionalBoolean(fields: Record<string, unknown>, name: string): boolean | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw new FieldProblem(`${name} must be true or false`);
  return value;
}

/** An instant as our export writes it (toISOString), read by the rule of every date a client names (http/instant.ts). */
function optionalInstant(fields: Record<string, unknown>, name: string): Date | null | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return value;
  try {
    return parseInstant(value, name);
  } catch (error) {
    if (error instanceof HttpError) throw new FieldProblem(error.message);
    throw error;
  }
}
