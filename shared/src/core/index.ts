export * from "./allocator-settings.ts";
export * from "./bounded-json.ts";
export * from "./bounded-map.ts";
export * from "./config.ts";
export * from "./deadline.ts";
export * from "./logger.ts";
export * from "./redacted-url.ts";
export * from "./throttled-warning.ts";
