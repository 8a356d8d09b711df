export * from "./api-keys.ts";
export * from "./domains.ts";
export * from "./error-codes.ts";
export * from "./geocode-jobs-path.ts";
export * from "./reserved-words.ts";
export * from "./short-code-shape.ts";
