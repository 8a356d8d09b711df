import { isRecord } from "./openapi-document.ts";

/** Per components section (`schemas`, `securitySchemes`, …): old name to new name. */
export type ComponentRenames = Map<string, Map<string, string>>;

const localRef = /^#\/components\/([^/]+)\/([^/]+)$/;

/**
 * A deep copy of `value` whose local component references follow `renames`:
 * `$ref` values and discriminator mappings (the two places OpenAPI 3 names a
 * component by pointer). The input is never modified, so a cached service
 * spec stays as the service sent it.
 */
export function rewriteRefs<T>(value: T, renames: ComponentRenames): T {
  return copy(value, renames) as T;
}

/** The pointer to a component, with JSON Pointer escaping (RFC 6901). */
export function componentRef(section: string, name: string): string {
  return `#/components/${section}/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

function copy(node: unknown, renames: ComponentRenames): unknown {
  if (Array.isArray(node)) return node.map((item) => copy(item, renames));
  if (!isRecord(node)) return node;
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(node)) {
    if (key === "$ref" && typeof child === "string") result[key] = renamed(child, renames);
    else if (key === "discriminator" && isRecord(child) && isRecord(child.mapping)) {
      const mapping = Object.fromEntries(Object.entries(child.mapping).map(([value, ref]) => [value, typeof ref === "string" ? renamed(ref, renames) : ref]));
      result[key] = { ...child, mapping };
    } else result[key] = copy(child, renames);
  }
  return result;
}

function renamed(ref: string, renames: ComponentRenames): string {
  const target = parseRef(ref);
  if (!target) return ref;
  const newName = renames.get(target[0])?.get(target[1]);
  return newName === undefined ? ref : componentRef(target[0], newName);
}

function parseRef(ref: string): [string, string] | undefined {
  const match = localRef.exec(ref);
  if (!match) return undefined;
  return [match[1]!, match[2]!.replaceAll("~1", "/").replaceAll("~0", "~")];
}
