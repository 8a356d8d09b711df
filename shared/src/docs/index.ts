export { docsRoutes, type DocsRoutesOptions } from "./docs-routes.ts";
