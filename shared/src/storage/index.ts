export * from "./redis-client.ts";
export * from "./redis-connection-report.ts";
export * from "./redis-script.ts";
export * from "./redis-with-fallback.ts";
export * from "./sqlite-wal.ts";
