export interface BoundedMapOptions {
  /** A read makes the key the youngest too: the least recently used goes first, not the oldest written. */
  refreshOnRead?: boolean;
}

/**
 * A key's place in the age order: a list from the oldest to the youngest.
 * An entry never moves: a key made the youngest gets a new entry, and the
 * old one is gone, keeping its link to what was younger than it, so an
 * iteration standing on it goes on where it was, as a Map's would.
 */
interface Entry<K, V> {
  key: K;
  value: V;
  older: Entry<K, V> | undefined;
  younger: Entry<K, V> | undefined;
  /** Deleted, evicted or replaced by a younger entry of its key. */
  gone: boolean;
}

/**
 * A Map of at most `capacity` entries, for every in-process cache and table
 * that must not grow with its input (links, answers, rate-limit buckets,
 * parsed User-Agents). Writing a key makes it the youngest; past capacity the
 * oldest goes. Expiry, where there is any, is the owner's: this only bounds.
 *
 * The age order is a linked list beside the Map, so that making a key the
 * youngest never deletes from the Map (it overwrites the key's entry): Bun's Map, whose own order this used to
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
    if (this.options.refreshOnRead) this.makeYoungest(entry, entry.value);
    return entry.value;
  }

  set(key: K, value: V): void {
    const known = this.map.get(key);
    if (known !== undefined) {
      this.makeYoungest(known, value);
      return;
    }
    this.append(key, value);
    if (this.map.size > this.capacity && this.oldest) this.remove(this.oldest);
  }

  delete(key: K): boolean {
    const entry = this.map.get(key);
    if (entry === undefined) return false;
    this.remove(entry);
    return true;
  }

  /**
   * Oldest first, as a Map's own iteration goes: the loop may delete, write
   * and read entries meanwhile; a key made the youngest comes again at the
   * end, a key deleted ahead is passed over.
   */
  *entries(): Generator<[K, V], void, undefined> {
    for (let entry = this.oldest; entry !== undefined; entry = entry.younger) {
      if (!entry.gone) yield [entry.key, entry.value];
    }
  }

  private makeYoungest(entry: Entry<K, V>, value: V): void {
    if (entry === this.youngest) {
      entry.value = value;
      return;
    }
    this.unlink(entry);
    entry.gone = true;
    this.append(entry.key, value);
  }

  /** A new youngest entry for `key`, in the Map (a first write, or an overwrite of its older entry) and at the end of the order. */
  private append(key: K, value: V): void {
    const entry: Entry<K, V> = { key, value, older: this.youngest, younger: undefined, gone: false };
    this.map.set(key, entry);
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
