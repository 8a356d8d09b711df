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
  /**
   * A later source's component differs from an earlier one of the same name: the first keeps the name; the
   * later one is added as `renamed_to` with that source's `$ref`s to it, or left out where no `$ref` names it
   * (a security scheme, named by the operations' requirements).
   */
  | { kind: "component"; section: string; name: string; kept: string; dropped: string; renamed_to?: string }
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
 *   is listed as a conflict; the first keeps the name, and the later one is
 *   added as `<source>_<name>`, with that source's `$ref`s to it rewritten,
 *   so each operation still shows its own service's schema (two versions
 *   of a service during a rolling deploy, say). A component is compared
 *   with its `$ref`s as they will read, so one that names a renamed
 *   component is renamed too. A security scheme is named by requirements,
 *   not `$ref`s: a different one of a taken name is left out. The services
 *   are built from one shared package (one error body, one bearer scheme),
 *   the merged-docs test fails on any conflict, and the fix is a distinct
 *   name at the source.
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
  const renames = componentRenames(union, source, spec);
  for (const [section, entries] of Object.entries(spec.components ?? {})) {
    const target = (union.components[section] ??= {});
    for (const [name, value] of Object.entries(entries ?? {})) {
      const renamed = renames.get(componentRef(section, name));
      if (renamed !== undefined) {
        const renamedTo = renamed.slice(componentRef(section, "").length);
        target[renamedTo] = withRenamedRefs(value, renames);
        union.componentOwners.set(`${section}/${renamedTo}`, source);
        union.conflicts.push({
          kind: "component",
          section,
          name,
          kept: union.componentOwners.get(`${section}/${name}`)!,
          dropped: source,
          renamed_to: renamedTo,
        });
      } else if (target[name] === undefined) {
        target[name] = withRenamedRefs(value, renames);
        union.componentOwners.set(`${section}/${name}`, source);
      } else if (section === "securitySchemes" && !Bun.deepEquals(target[name], value)) {
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
    union.paths[path] = adaptPathItem(union, source, withRenamedRefs(item, renames) as PathItem, spec.security);
  }

  for (const tag of spec.tags ?? []) {
    if (!union.tags.some((known) => known.name === tag.name)) union.tags.push({ ...tag });
  }
}

const componentRef = (section: string, name: string) => `#/components/${section}/${name}`;

/**
 * The `$ref`s of `source`'s components that must point elsewhere: each of
 * its components whose name an earlier source took with other content, its
 * own `$ref`s read as they will be (so renaming one can rename another).
 * Security schemes are left to the caller.
 */
function componentRenames(union: Union, source: string, spec: OpenApiDocument): Map<string, string> {
  const renames = new Map<string, string>();
  for (let renamedMore = true; renamedMore; ) {
    renamedMore = false;
    for (const [section, entries] of Object.entries(spec.components ?? {})) {
      if (section === "securitySchemes") continue;
      const taken = union.components[section] ?? {};
      for (const [name, value] of Object.entries(entries ?? {})) {
        if (renames.has(componentRef(section, name)) || taken[name] === undefined) continue;
        if (Bun.deepEquals(taken[name], withRenamedRefs(value, renames))) continue;
        let renamed = `${source}_${name}`;
        for (let n = 2; taken[renamed] !== undefined || entries?.[renamed] !== undefined; n++) renamed = `${source}_${name}_${n}`;
        renames.set(componentRef(section, name), componentRef(section, renamed));
        renamedMore = true;
      }
    }
  }
  return renames;
}

/** A copy of `value` with each `$ref` that `renames` names pointing to its new name. */
function withRenamedRefs(value: unknown, renames: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => withRenamedRefs(item, renames));
  if (!isRecord(value)) return value;
  const copy = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withRenamedRefs(item, renames)]));
  if (typeof copy.$ref === "string") copy.$ref = renames.get(copy.$ref) ?? copy.$ref;
  return copy;
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
    for (const conflict of shown) {
      const { what, kept, dropped } = conflict;
      const renamed = conflict.kind === "component" && conflict.renamed_to ? `${conflict.section}/${conflict.renamed_to}` : undefined;
      const outcome = renamed ? `${dropped}'s is \`${renamed}\` here` : `${kept}'s description is shown`;
      lines.push(`- \`${what}\` is described by ${kept} and ${dropped}; ${outcome}.`);
    }
  }
  return lines.join("\n");
}
