export interface BoundedMapOptions {
  /** A read makes the key the youngest too: the least recently used goes first, not the oldest written. */
  refreshOnRead?: boolean;
}

/**
 * A Map of at most `capacity` entries, for every in-process cache and table
 * that must not grow with its input (links, answers, rate-limit buckets,
 * parsed User-Agents). Writing a key makes it the youngest; past capacity the
 * oldest goes. A Map keeps insertion order, so moving a key to the end on
 * each write (and read, with `refreshOnRead`) makes its first key the one to
 * drop. Expiry, where there is any, is the owner's: this only bounds.
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();

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
    const value = this.map.get(key);
    if (value !== undefined && this.options.refreshOnRead) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  /** Oldest first. Deleting the current entry while iterating is safe. */
  entries(): MapIterator<[K, V]> {
    return this.map.entries();
  }
}
