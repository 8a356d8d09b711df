import { rewriteRefs, type ComponentRenames } from "./component-refs.ts";
import { httpMethods, isRecord, type OpenApiDocument, type OpenApiTag, type Operation, type PathItem, type SecurityRequirement } from "./openapi-document.ts";

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
  /** A later source's component differs from an earlier one of the same name: it is renamed. */
  | { kind: "component"; section: string; name: string; source: string; renamed_to: string }
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
 *   content under one name is shared; different content under a taken name is
 *   renamed to `<service>_<name>` and that service's `$ref`s and security
 *   requirements follow. Renaming, not dropping, because the later service's
 *   operations really do use its own shape.
 * - tags: union by name, the first description wins.
 * - a service without a spec is listed as unavailable in `info.description`.
 */
export function mergeSpecs(own: OpenApiDocument, services: ServiceSpec[]): OpenApiDocument {
  const union: Union = { paths: {}, pathOwners: new Map(), components: {}, tags: [], operationIds: new Set(), conflicts: [] };
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
  tags: OpenApiTag[];
  operationIds: Set<string>;
  conflicts: MergeConflict[];
}

function addSource(union: Union, source: string, spec: OpenApiDocument, skip: (path: string) => boolean): void {
  const components = spec.components ?? {};
  const renames = planRenames(union, source, components);

  for (const [section, entries] of Object.entries(components)) {
    const target = (union.components[section] ??= {});
    for (const [name, value] of Object.entries(entries ?? {})) {
      const finalName = renames.get(section)?.get(name) ?? name;
      // Present already only when planRenames found it equal: shared, not copied twice.
      if (target[finalName] === undefined) target[finalName] = rewriteRefs(value, renames);
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
    union.paths[path] = adaptPathItem(union, source, rewriteRefs(item, renames), spec.security, renames.get("securitySchemes"));
  }

  for (const tag of spec.tags ?? []) {
    if (!union.tags.some((known) => known.name === tag.name)) union.tags.push({ ...tag });
  }
}

/**
 * Which of the source's components need a new name. Repeated until nothing
 * changes because renaming one schema changes the content of every schema
 * that refers to it, which may then differ from its namesake too.
 */
function planRenames(union: Union, source: string, components: NonNullable<OpenApiDocument["components"]>): ComponentRenames {
  const renames: ComponentRenames = new Map();
  const taken = (section: string, name: string) =>
    union.components[section]?.[name] !== undefined || components[section]?.[name] !== undefined || [...(renames.get(section)?.values() ?? [])].includes(name);

  let changed = true;
  while (changed) {
    changed = false;
    for (const [section, entries] of Object.entries(components)) {
      for (const [name, value] of Object.entries(entries ?? {})) {
        const existing = union.components[section]?.[name];
        if (existing === undefined || renames.get(section)?.has(name)) continue;
        if (Bun.deepEquals(existing, rewriteRefs(value, renames))) continue;
        let newName = `${source}_${name}`;
        for (let n = 2; taken(section, newName); n++) newName = `${source}_${name}_${n}`;
        const sectionRenames = renames.get(section) ?? new Map<string, string>();
        renames.set(section, sectionRenames.set(name, newName));
        union.conflicts.push({ kind: "component", section, name, source, renamed_to: newName });
        changed = true;
      }
    }
  }
  return renames;
}

/** `item` is already a private copy, so its operations are adjusted in place. */
function adaptPathItem(
  union: Union,
  source: string,
  item: PathItem,
  defaultSecurity: OpenApiDocument["security"],
  schemeRenames: Map<string, string> | undefined,
): PathItem {
  const renameSchemes = (requirement: SecurityRequirement): SecurityRequirement =>
    Object.fromEntries(Object.entries(requirement).map(([scheme, scopes]) => [schemeRenames?.get(scheme) ?? scheme, scopes]));

  for (const method of httpMethods) {
    const value = item[method];
    if (!isRecord(value)) continue;
    const operation: Operation = value;
    // A document-wide `security` would cover every source once merged, so each
    // source's default moves onto its own operations. (Elysia writes null for "none given".)
    if (Array.isArray(operation.security)) operation.security = operation.security.map(renameSchemes);
    else if (Array.isArray(defaultSecurity)) operation.security = defaultSecurity.map(renameSchemes);

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
  const pathConflicts = report.conflicts.filter((conflict) => conflict.kind === "path");
  if (pathConflicts.length > 0) {
    lines.push("", "Conflicts:", "");
    for (const conflict of pathConflicts) {
      lines.push(`- \`${conflict.path}\` is described by ${conflict.kept} and ${conflict.dropped}; ${conflict.kept}'s description is shown.`);
    }
  }
  return lines.join("\n");
}
