/** Rows reused from one call to the next (the search asks for hundreds a query): names are shorter than this. */
const reusedWidth = 128;
const rows = [new Uint16Array(reusedWidth), new Uint16Array(reusedWidth), new Uint16Array(reusedWidth)] as const;

/**
 * The optimal string alignment distance between `a` and `b` (Damerau's: an
 * insertion, a deletion, a substitution or two neighbours swapped each cost
 * one, so `pairs` is one from `paris`), or `max + 1` as soon as it must be
 * more than `max`: the search asks only whether a name is within one or two.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const width = b.length + 1;
  const reuse = width <= reusedWidth;
  // Three rows: the one before the previous (for swaps), the previous, this one.
  let before = reuse ? rows[0] : new Uint16Array(width);
  let previous = reuse ? rows[1] : new Uint16Array(width);
  let current = reuse ? rows[2] : new Uint16Array(width);
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowBest = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const bj = b.charCodeAt(j - 1);
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
      if (value < rowBest) rowBest = value;
    }
    if (rowBest > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length]!, max + 1);
}
