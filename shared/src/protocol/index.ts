export * from "./bulk-create.ts";
export * from "./geocode-jobs.ts";
export * from "./import-upload.ts";
export * from "./redirect-batch-schemas.ts";
export * from "./redirect-batch.ts";
export * from "./reverse-batch.ts";
export * from "./unlock-form.ts";
