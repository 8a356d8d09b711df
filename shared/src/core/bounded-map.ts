export interface BoundedMapOptions {
  /** A read makes the key the youngest too: the least recently used goes first, not the oldest written. */
  refreshOnRead?: boolean;
}

/** A key's place in the age order: a list from the oldest to the youngest. */
interface Entry<K, V> {
  key: K;
  value: V;
  older: Entry<K, V> | undefined;
  younger: Entry<K, V> | undefined;
  /** Deleted or evicted: an iteration standing on it moves on. */
  gone: boolean;
}

/**
 * A Map of at most `capacity` entries, for every in-process cache and table
 * that must not grow with its input (links, answers, rate-limit buckets,
 * parsed User-Agents). Writing a key makes it the youngest; past capacity the
 * oldest goes. Expiry, where there is any, is the owner's: this only bounds.
 *
 * The age order is a linked list beside the Map, so that making a key the
 * youngest never touches the Map: Bun's Map, whose own order this used to
 * be (a key deleted and set again to move it to the end), leaves each
 * deletion in the key's probe chain until it rebuilds its table, so the same
 * key moved again and again cost 16 µs a time in a Map of 50,000 keys (1 µs
 * at 1,000), and finding the oldest key by iterating from the start walked
 * every deletion before it (4.4 µs). That made one hot link's redirect cost
 * twice as much after traffic spread over many links had filled the
 * shortener's table of recent codes.
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, Entry<K, V>>();
  private oldest: Entry<K, V> | undefined;
  private youngest: Entry<K, V> | undefined;

  constructor(
    readonly capacity: number,
    private readonly options: BoundedMapOptions = {},
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`a bounded map needs room for at least one entry, not ${capacity}`);
  }

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    if (this.options.refreshOnRead) this.makeYoungest(entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    const known = this.map.get(key);
    if (known !== undefined) {
      known.value = value;
      this.makeYoungest(known);
      return;
    }
    const entry: Entry<K, V> = { key, value, older: undefined, younger: undefined, gone: false };
    this.map.set(key, entry);
    this.append(entry);
    if (this.map.size > this.capacity && this.oldest) this.remove(this.oldest);
  }

  delete(key: K): boolean {
    const entry = this.map.get(key);
    if (entry === undefined) return false;
    this.remove(entry);
    return true;
  }

  /** Oldest first. Deleting the current entry while iterating is safe. */
  *entries(): IterableIterator<[K, V]> {
    for (let entry = this.oldest; entry !== undefined; ) {
      // Read before handing it out: the caller may delete it, which unlinks it.
      const next = entry.younger;
      if (!entry.gone) yield [entry.key, entry.value];
      entry = next;
    }
  }

  private makeYoungest(entry: Entry<K, V>): void {
    if (entry === this.youngest) return;
    this.unlink(entry);
    this.append(entry);
  }

  private append(entry: Entry<K, V>): void {
    entry.older = this.youngest;
    entry.younger = undefined;
    if (this.youngest) this.youngest.younger = entry;
    else this.oldest = entry;
    this.youngest = entry;
  }

  private unlink(entry: Entry<K, V>): void {
    if (entry.older) entry.older.younger = entry.younger;
    else this.oldest = entry.younger;
    if (entry.younger) entry.younger.older = entry.older;
    else this.youngest = entry.older;
  }

  /** Out of the Map and the order; the entry keeps its link to the younger one, for an iteration standing on it. */
  private remove(entry: Entry<K, V>): void {
    this.map.delete(entry.key);
    this.unlink(entry);
    entry.gone = true;
  }
}
