export { gatewayOwnSpec } from "./gateway-own-spec.ts";
export { mergedDocs } from "./merged-docs.ts";
export { mergeSpecs, mergeReportField, type MergeConflict, type MergeReport, type MergeSource, type ServiceSpec } from "./merge-specs.ts";
export { MergedSpecSource, serviceNames, type MergedSpecOptions, type ServiceName } from "./merged-spec-source.ts";
export { asOpenApiDocument, type OpenApiDocument } from "./openapi-document.ts";
