export * from "./coordinate-columns.ts";
export * from "./csv-rows.ts";
export * from "./csv-writer.ts";
export * from "./formula-cells.ts";
