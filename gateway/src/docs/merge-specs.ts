import { httpMethods, isRecord, type OpenApiDocument, type OpenApiTag, type Operation, type PathItem } from "./openapi-document.ts";

export interface ServiceSpec {
  name: string;
  /** undefined: the service has never answered, so its operations are missing. */
  spec: OpenApiDocument | undefined;
  /** Set when `spec` is a copy kept from an earlier answer because the service does not answer now. */
  asOf?: Date;
}

/** Where each part of the merged document came from; also written into the document as `x-linkgeo-merge`. */
export interface MergeReport {
  sources: MergeSource[];
  conflicts: MergeConflict[];
}

export type MergeSource =
  | { name: string; status: "own" | "available" }
  | { name: string; status: "stale"; as_of: string }
  | { name: string; status: "unavailable" };

export type MergeConflict =
  /** Two sources describe the same path (template names ignored): the first is kept. */
  | { kind: "path"; path: string; kept: string; dropped: string }
  /** A later source's component differs from an earlier one of the same name: the first is kept. */
  | { kind: "component"; section: string; name: string; kept: string; dropped: string }
  /** operationIds must be unique in a document: a later duplicate is prefixed with its source. */
  | { kind: "operationId"; operation_id: string; source: string; renamed_to: string };

export const mergeReportField = "x-linkgeo-merge";
export const mergedTitle = "linkgeo API";

/** The gateway answers these itself, so the services' own descriptions of them would be wrong here. */
function answeredByGateway(path: string): boolean {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed === "/health" || trimmed === "/ready" || trimmed === "/docs" || trimmed.startsWith("/docs/");
}

/**
 * One document for the whole API: the gateway's own routes, then each
 * service's in the order given.
 *
 * - paths: the first source to describe a path keeps it; a later one is
 *   dropped and listed as a conflict. The services' /health, /ready and /docs*
 *   are never copied.
 * - components (every section, schemas and securitySchemes included): equal
 *   content under one name is shared. Different content under a taken name
 *   keeps the first and is listed as a conflict: the services are built from
 *   one shared package (one error body, one bearer scheme), the merged-docs
 *   test fails on any conflict, and the fix is a distinct name at the source,
 *   not a rename at run time.
 * - tags: union by name, the first description wins.
 * - a service without a spec is listed as unavailable in `info.description`.
 */
export function mergeSpecs(own: OpenApiDocument, services: ServiceSpec[]): OpenApiDocument {
  const union: Union = { paths: {}, pathOwners: new Map(), components: {}, componentOwners: new Map(), tags: [], operationIds: new Set(), conflicts: [] };
  const sources: MergeSource[] = [{ name: "gateway", status: "own" }];
  addSource(union, "gateway", own, () => false);

  for (const service of services) {
    if (!service.spec) {
      sources.push({ name: service.name, status: "unavailable" });
      continue;
    }
    sources.push(service.asOf ? { name: service.name, status: "stale", as_of: service.asOf.toISOString() } : { name: service.name, status: "available" });
    addSource(union, service.name, service.spec, answeredByGateway);
  }

  const report: MergeReport = { sources, conflicts: union.conflicts };
  const components = Object.fromEntries(Object.entries(union.components).filter(([, entries]) => Object.keys(entries).length > 0));
  return {
    openapi: own.openapi,
    info: { ...own.info, title: mergedTitle, description: describeMerge(own, services, report) },
    paths: union.paths,
    components,
    tags: union.tags,
    [mergeReportField]: report,
  };
}

interface Union {
  paths: Record<string, PathItem>;
  /** Path with template names blanked (`/{}`) to the source and path that own it. */
  pathOwners: Map<string, { source: string; path: string }>;
  components: Record<string, Record<string, unknown>>;
  /** Component (`schemas/Error`) to the source that defined it first. */
  componentOwners: Map<string, string>;
  tags: OpenApiTag[];
  operationIds: Set<string>;
  conflicts: MergeConflict[];
}

function addSource(union: Union, source: string, spec: OpenApiDocument, skip: (path: string) => boolean): void {
  for (const [section, entries] of Object.entries(spec.components ?? {})) {
    const target = (union.components[section] ??= {});
    for (const [name, value] of Object.entries(entries ?? {})) {
      const existing = target[name];
      if (existing === undefined) {
        target[name] = structuredClone(value);
        union.componentOwners.set(`${section}/${name}`, source);
      } else if (!Bun.deepEquals(existing, value)) {
        union.conflicts.push({ kind: "component", section, name, kept: union.componentOwners.get(`${section}/${name}`)!, dropped: source });
      }
    }
  }

  for (const [path, item] of Object.entries(spec.paths)) {
    if (skip(path)) continue;
    // `/{short_url}` and `/{code}` are the same path to a router and to OpenAPI.
    const key = path.replace(/\{[^}]*\}/g, "{}");
    const owner = union.pathOwners.get(key);
    if (owner) {
      union.conflicts.push({ kind: "path", path, kept: owner.source, dropped: source });
      continue;
    }
    union.pathOwners.set(key, { source, path });
    union.paths[path] = adaptPathItem(union, source, structuredClone(item), spec.security);
  }

  for (const tag of spec.tags ?? []) {
    if (!union.tags.some((known) => known.name === tag.name)) union.tags.push({ ...tag });
  }
}

/** `item` is already a private copy, so its operations are adjusted in place. */
function adaptPathItem(union: Union, source: string, item: PathItem, defaultSecurity: OpenApiDocument["security"]): PathItem {
  for (const method of httpMethods) {
    const value = item[method];
    if (!isRecord(value)) continue;
    const operation: Operation = value;
    // A document-wide `security` would cover every source once merged, so each
    // source's default moves onto its own operations. (Elysia writes null for "none given".)
    if (!Array.isArray(operation.security) && Array.isArray(defaultSecurity)) operation.security = structuredClone(defaultSecurity);

    if (typeof operation.operationId === "string") {
      const original = operation.operationId;
      if (union.operationIds.has(original)) {
        let renamed = `${source}_${original}`;
        for (let n = 2; union.operationIds.has(renamed); n++) renamed = `${source}_${original}_${n}`;
        operation.operationId = renamed;
        union.conflicts.push({ kind: "operationId", operation_id: original, source, renamed_to: renamed });
      }
      union.operationIds.add(operation.operationId);
    }
  }
  return item;
}

/** The human side of the merge report: what readers of the page need to know. */
function describeMerge(own: OpenApiDocument, services: ServiceSpec[], report: MergeReport): string {
  const lines = own.info.description ? [own.info.description, ""] : [];
  lines.push("Services:", "");
  for (const service of services) {
    if (!service.spec) {
      lines.push(`- **${service.name}**: unavailable; its operations are missing here until it answers.`);
      continue;
    }
    const summary = service.spec.info.description ?? service.spec.info.title;
    const stale = service.asOf ? ` (not answering now; as it described itself at ${service.asOf.toISOString()})` : "";
    lines.push(`- **${service.name}**: ${summary}${stale}`);
  }
  const shown = report.conflicts.flatMap((conflict) =>
    conflict.kind === "operationId" ? [] : [{ what: conflict.kind === "path" ? conflict.path : `${conflict.section}/${conflict.name}`, ...conflict }],
  );
  if (shown.length > 0) {
    lines.push("", "Conflicts:", "");
    for (const { what, kept, dropped } of shown) lines.push(`- \`${what}\` is described by ${kept} and ${dropped}; ${kept}'s description is shown.`);
  }
  return lines.join("\n");
}
