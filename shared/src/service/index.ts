export * from "./begin-service.ts";
export * from "./graceful-shutdown.ts";
export * from "./health.ts";
export * from "./last-resort.ts";
export * from "./proxy-pair-variables.ts";
export * from "./service-app.ts";
export * from "./service-config.ts";
export * from "./service-lifecycle.ts";
