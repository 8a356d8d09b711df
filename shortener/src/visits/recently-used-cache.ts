/**
 * A map of at most `capacity` entries that, when full, forgets the one used
 * least recently. A Map keeps insertion order, so moving an entry to the end
 * on every use makes its first key the least recently used one.
 */
export class RecentlyUsedCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`a cache needs room for at least one entry, not ${capacity}`);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) {
      const leastRecent = this.entries.keys().next();
      if (!leastRecent.done) this.entries.delete(leastRecent.value);
    }
    this.entries.set(key, value);
  }
}
