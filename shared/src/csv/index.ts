export * from "./coordinate-columns.ts";
export * from "./query-column.ts";
export * from "./csv-rows.ts";
export * from "./csv-writer.ts";
export * from "./formula-cells.ts";
