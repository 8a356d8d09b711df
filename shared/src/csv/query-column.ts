/**
 * Which column of a CSV file holds a forward question (a name or an
 * address), by header name (any case, spaces around ignored): the first of
 * `queryColumnNames` the header has. `bun run geocode --forward` and the
 * forward jobs read files the same way.
 */
export const queryColumnNames = ["q", "query", "address", "place", "name", "search"] as const;

/** The column's index, or what is missing, in words. */
export function queryColumn(header: readonly string[]): { column: number } | { missing: string } {
  const names = header.map((name) => name.trim().toLowerCase());
  const column = queryColumnNames.map((name) => names.indexOf(name)).find((index) => index !== -1);
  if (column !== undefined) return { column };
  return { missing: `the header names no column to look for (${queryColumnNames.join(", ")}, any case; found ${header.join(", ") || "nothing"})` };
}
