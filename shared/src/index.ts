// Everything shared, for the services; each layer is also its own subpath
// (@linkgeo/shared/core, /wire, …): the browser's bundle imports only the
// pure ones (wire, csv), which import nothing else.
export * from "./core/index.ts";
export * from "./wire/index.ts";
export * from "./net/index.ts";
export * from "./csv/index.ts";
export * from "./http/index.ts";
export * from "./metrics/index.ts";
export * from "./storage/index.ts";
export * from "./protocol/index.ts";
export * from "./docs/index.ts";
export * from "./service/index.ts";
export * from "./rate-limit/index.ts";
