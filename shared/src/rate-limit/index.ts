export * from "./memory-token-buckets.ts";
export * from "./rate-limit-headers.ts";
export * from "./rate-limited.ts";
export * from "./rate-rule.ts";
export * from "./redis-token-buckets.ts";
export * from "./token-bucket.ts";
