/**
 * Keys as two 32-bit hashes each, in typed arrays: a feed's million
 * entries are then two arrays of numbers, not a million strings for the
 * runtime's collector to walk on every collection (which made the
 * redirects of a process holding them pay for it). Two keys are taken for
 * one only when both hashes agree, about one chance in 2^64 for a pair.
 */
export interface HashedKeys {
  /** The first hash of each key, never 0 (0 marks an empty slot of a table). */
  readonly first: Uint32Array;
  readonly second: Uint32Array;
  readonly length: number;
}

export function hashPair(key: string): [number, number] {
  return [Bun.hash.xxHash32(key) || 1, Bun.hash.murmur32v3(key)];
}

/** `keys` hashed: the strings may go once this returns. */
export function hashKeys(keys: readonly string[]): HashedKeys {
  const first = new Uint32Array(keys.length);
  const second = new Uint32Array(keys.length);
  keys.forEach((key, i) => {
    [first[i], second[i]] = hashPair(key);
  });
  return { first, second, length: keys.length };
}

/**
 * An open-addressing table of hashed keys, each with a small number (the
 * list that named it first), at most half full: a lookup is a few array
 * reads.
 */
export class HashedKeyTable {
  private readonly first: Uint32Array;
  private readonly second: Uint32Array;
  private readonly values: Uint16Array;
  private readonly mask: number;
  private count = 0;

  constructor(capacity: number) {
    let slots = 16;
    while (slots < capacity * 2) slots *= 2;
    this.first = new Uint32Array(slots);
    this.second = new Uint32Array(slots);
    this.values = new Uint16Array(slots);
    this.mask = slots - 1;
  }

  get size(): number {
    return this.count;
  }

  /** Adds the key unless it is there already (the first value stays). */
  add(first: number, second: number, value: number): void {
    const slot = this.slotOf(first, second);
    if (this.first[slot] !== 0) return;
    this.first[slot] = first;
    this.second[slot] = second;
    this.values[slot] = value;
    this.count++;
  }

  /** The key's value, or -1. */
  get(key: string): number {
    const [first, second] = hashPair(key);
    const slot = this.slotOf(first, second);
    return this.first[slot] === 0 ? -1 : this.values[slot]!;
  }

  /** The key's slot, or the empty one where it would go. */
  private slotOf(first: number, second: number): number {
    let slot = first & this.mask;
    while (this.first[slot] !== 0 && !(this.first[slot] === first && this.second[slot] === second)) slot = (slot + 1) & this.mask;
    return slot;
  }
}
