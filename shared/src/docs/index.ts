export { docsPagePolicy, type DocsPageContent } from "./docs-page.ts";
export { docsRoutes, type DocsRoutesOptions } from "./docs-routes.ts";
export { serviceSpec, type ServiceSpec, type ServiceSpecInfo } from "./service-spec.ts";
