export * from "./config-problems.ts";
export * from "./free-port.ts";
export * from "./read-json.ts";
export * from "./redis-process.ts";
export * from "./rejection-of.ts";
export * from "./test-postgres.ts";
export * from "./test-redis.ts";
export * from "./wait-for.ts";
