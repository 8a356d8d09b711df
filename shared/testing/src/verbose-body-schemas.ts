import { schemaNodes } from "@linkgeo/shared";
import type { AnyElysia } from "elysia";

/**
 * The routes of an app whose body schema has a node without an `error` of
 * its own: there, Elysia would print a failing body into its message. Empty
 * once the app went through `terseBodyFailures`, for every route it has.
 */
export function verboseBodySchemas(app: AnyElysia): string[] {
  return app.routes
    .filter((route) => [...schemaNodes(route.hooks.body)].some((node) => !Object.hasOwn(node, "error")))
    .map((route) => `${route.method} ${route.path}`);
}
