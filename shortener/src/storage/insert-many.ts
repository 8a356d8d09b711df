/** Links per statement of `insertMany`: 17 columns each stays well under both engines' bound on parameters (32,766 in SQLite). */
export const insertManyRows = 1_000;

/** `links` in `insertManyRows`-sized slices, each sorted by code (byte order, as the Postgres column sorts). */
export function insertManyChunks<T extends { code: string }>(links: readonly T[]): T[][] {
  // Concurrent multi-row inserts that take the same codes in different orders deadlock on Postgres:
  // in one order, the later waits for the earlier instead.
  const sorted = [...links].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const chunks: T[][] = [];
  for (let start = 0; start < sorted.length; start += insertManyRows) chunks.push(sorted.slice(start, start + insertManyRows));
  return chunks;
}
