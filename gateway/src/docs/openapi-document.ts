/**
 * Just enough of an OpenAPI 3.x document for merging: the parts the merge reads
 * are typed, everything else passes through as `unknown`. (openapi-types'
 * OpenAPIV3.Document is stricter than what Elysia emits, e.g. `tags: null`.)
 */
export interface OpenApiDocument {
  openapi: string;
  info: OpenApiInfo;
  paths: Record<string, PathItem>;
  components?: Record<string, Record<string, unknown> | undefined>;
  /** Elysia's generator writes `null` when no tag is declared. */
  tags?: OpenApiTag[] | null;
  security?: SecurityRequirement[] | null;
  [field: string]: unknown;
}

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
  [field: string]: unknown;
}

export interface OpenApiTag {
  name: string;
  description?: string;
  [field: string]: unknown;
}

/** Methods (`get`, `post`, …) to operations, plus path-level `parameters` and `summary`. */
export type PathItem = Record<string, unknown>;

export interface Operation {
  operationId?: string;
  tags?: string[];
  security?: SecurityRequirement[] | null;
  [field: string]: unknown;
}

/** Scheme name (a key of `components.securitySchemes`) to scopes. */
export type SecurityRequirement = Record<string, string[]>;

export const httpMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/**
 * What a service answered at /docs/json, if it looks like an OpenAPI 3 document;
 * undefined otherwise, so a broken service counts as unavailable instead of
 * breaking the merged page.
 */
export function asOpenApiDocument(value: unknown): OpenApiDocument | undefined {
  if (!isRecord(value)) return undefined;
  if (typeof value.openapi !== "string" || !value.openapi.startsWith("3.")) return undefined;
  if (!isRecord(value.info) || typeof value.info.title !== "string") return undefined;
  if (!isRecord(value.paths) || !Object.values(value.paths).every(isRecord)) return undefined;
  if (value.components !== undefined && !(isRecord(value.components) && Object.values(value.components).every(isRecord))) return undefined;
  if (value.tags !== undefined && value.tags !== null && !(Array.isArray(value.tags) && value.tags.every(isTag))) return undefined;
  return value as OpenApiDocument;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isTag(value: unknown): value is OpenApiTag {
  return isRecord(value) && typeof value.name === "string";
}
