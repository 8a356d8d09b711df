/** How many keys the index may hold: a key's number takes the low 18 bits of an entry. */
const keySpace = 2 ** 18;

/** Keys longer than this are indexed whole only: a typo in a 30-letter name is rarer than the memory its deletes take. */
const maxDeletedLength = 24;

/**
 * The keys one deletion away from a word, hashed, for finding the keys within
 * an edit or two of a query without comparing it to each (the symmetric
 * deletion idea of SymSpell): a key and a query one typo apart share a
 * deletion (a swap, a wrong, a missing or an extra letter), two typos apart
 * a deletion of the query's deletions. Each key is stored as 32-bit hashes
 * of itself and of its deletions, each with the key's number, in one sorted
 * typed array: 12 MB for LOCAL's 140,000 names, nothing for the collector to walk.
 * A hash may collide, so what it finds are candidates: the caller measures
 * each against the query.
 */
export class DeletionIndex {
  /** hash × keySpace + key number, sorted: exact in a double (under 2^50), and sorted natively. */
  private readonly entries: Float64Array;

  constructor(keys: readonly string[]) {
    if (keys.length > keySpace) throw new Error(`the deletion index holds at most ${keySpace} keys`);
    // Every entry written straight into one typed array (a key and each of its deletions), sorted natively, then the
    // duplicates dropped ("aab" deleted at 0 or 1 is "ab" twice): a third of the time of a Set per key and a number[].
    let most = 0;
    for (const word of keys) most += 1 + (deletable(word) ? word.length : 0);
    const entries = new Float64Array(most);
    let written = 0;
    for (let key = 0; key < keys.length; key++) {
      const word = keys[key]!;
      entries[written++] = hashOf(word, -1) * keySpace + key;
      if (deletable(word)) for (let at = 0; at < word.length; at++) entries[written++] = hashOf(word, at) * keySpace + key;
    }
    entries.sort();
    let kept = 0;
    for (let i = 0; i < written; i++) if (kept === 0 || entries[i] !== entries[kept - 1]) entries[kept++] = entries[i]!;
    this.entries = entries.slice(0, kept);
  }

  get size(): number {
    return this.entries.length;
  }

  /** The numbers of the keys that are `word`, or one of its deletions, or have it as one of theirs: candidates. */
  candidates(word: string, maxEdits: 1 | 2): Set<number> {
    const found = new Set<number>();
    const ask = (hash: number) => this.collect(hash, found);
    ask(hashOf(word, -1));
    for (let at = 0; at < word.length; at++) ask(hashOf(word, at));
    if (maxEdits === 2) {
      // Two deletions of the query meet a key's one (or its whole self): up to two edits on the query's side.
      const seen = new Set<string>();
      for (let first = 0; first < word.length; first++) {
        const once = word.slice(0, first) + word.slice(first + 1);
        if (seen.has(once)) continue;
        seen.add(once);
        for (let second = 0; second < once.length; second++) ask(hashOf(once, second));
      }
    }
    return found;
  }

  private collect(hash: number, into: Set<number>): void {
    const low = hash * keySpace;
    const high = low + keySpace;
    let from = 0;
    let to = this.entries.length;
    while (from < to) {
      const middle = (from + to) >>> 1;
      if (this.entries[middle]! < low) from = middle + 1;
      else to = middle;
    }
    for (let i = from; i < this.entries.length && this.entries[i]! < high; i++) into.add(this.entries[i]! - low);
  }
}

/** Whether a key is indexed under its deletions too, not only whole. */
const deletable = (word: string) => word.length > 1 && word.length <= maxDeletedLength;

/** FNV-1a over the UTF-16 units of `word`, leaving out the one at `skip` (-1: none): a deletion hashed without building it. */
function hashOf(word: string, skip: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    if (i === skip) continue;
    hash ^= word.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
