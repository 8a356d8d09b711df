import type { AnyElysia } from "elysia";

const typeBoxKind = Symbol.for("TypeBox.Kind");

/**
 * The routes of an app whose body schema has a node without an `error` of
 * its own: there, Elysia would print a failing body into its message. Empty
 * once the app went through `terseBodyFailures`, for every route it has.
 */
export function verboseBodySchemas(app: AnyElysia): string[] {
  const verbose = (node: unknown, seen: Set<object>): boolean => {
    if (typeof node !== "object" || node === null || seen.has(node)) return false;
    seen.add(node);
    if (typeBoxKind in node && !Object.hasOwn(node, "error")) return true;
    return Object.values(node).some((child) => verbose(child, seen));
  };
  return app.routes.filter((route) => verbose(route.hooks.body, new Set())).map((route) => `${route.method} ${route.path}`);
}
