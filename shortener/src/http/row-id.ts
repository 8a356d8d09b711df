/**
 * An id the database numbered (a person, a workspace), as a request writes
 * it: digits, 1 to 2^31 - 1, the integer column's range; undefined for
 * anything else, which no row can have.
 */
export function rowIdOf(text: string): number | undefined {
  if (!/^[1-9][0-9]{0,9}$/.test(text) || Number(text) > 2 ** 31 - 1) return undefined;
  return Number(text);
}
