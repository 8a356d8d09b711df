/** What an address without a country maps to, at index 0 of every table's `countries`. */
export const unknownCountry = "unknown";

/**
 * Address ranges of one family as two parallel typed arrays: the first
 * address of each range, sorted, and the index of its country. A range runs
 * up to the next one's start; gaps in the data are ranges of country 0
 * (unknown), so no end addresses need keeping.
 */
export interface RangeList {
  /** 32-bit words per address: 1 for IPv4, 4 for IPv6 (most significant first). */
  wordsPerAddress: 1 | 4;
  starts: Uint32Array;
  countries: Uint8Array;
}

export interface IpCountryTable {
  /** ISO 3166-1 alpha-2 codes by index; index 0 is `unknownCountry`. */
  countries: readonly string[];
  ipv4: RangeList;
  ipv6: RangeList;
}

/**
 * Collects the ranges of both families, in ascending order per family, as a
 * data file lists them; `build` gives the compact table. Adjacent ranges of
 * one country become one.
 */
export class IpCountryTableBuilder {
  private readonly countries = [unknownCountry];
  private readonly indexes = new Map<string, number>();
  readonly ipv4 = new RangeListBuilder(1);
  readonly ipv6 = new RangeListBuilder(4);

  /** The index of `code`; 0 (unknown) for anything but two capital letters, and for ZZ, "unknown" by convention. */
  countryIndex(code: string): number {
    const known = this.indexes.get(code);
    if (known !== undefined) return known;
    if (!/^[A-Z]{2}$/.test(code) || code === "ZZ") return 0;
    // Uint8Array indexes: ISO 3166-1 has 249 codes, so 255 is room enough.
    if (this.countries.length > 255) throw new Error(`more than 255 country codes (at ${code})`);
    this.indexes.set(code, this.countries.length);
    this.countries.push(code);
    return this.countries.length - 1;
  }

  build(): IpCountryTable {
    return { countries: this.countries, ipv4: this.ipv4.build(), ipv6: this.ipv6.build() };
  }
}

/** Ranges of one family, given in ascending order without overlaps. */
export class RangeListBuilder {
  private starts: Uint32Array;
  private countries: Uint8Array;
  private count = 0;
  private readonly lastEnd: Uint32Array;
  private readonly next: Uint32Array;
  private hasLast = false;

  constructor(private readonly wordsPerAddress: 1 | 4) {
    this.starts = new Uint32Array(wordsPerAddress * 1024);
    this.countries = new Uint8Array(1024);
    this.lastEnd = new Uint32Array(wordsPerAddress);
    this.next = new Uint32Array(wordsPerAddress);
  }

  /**
   * Adds the range from `start` to `end`, both included. Throws when it does
   * not come after the previous one: the file is not what this reader
   * expects, and answering from it would be wrong without a sign.
   */
  add(start: Uint32Array, end: Uint32Array, country: number): void {
    if (compareWords(start, end) > 0) throw new Error(`a range ends before it starts (at ${hex(start)})`);
    if (this.hasLast) {
      if (compareWords(start, this.lastEnd) <= 0) throw new Error(`ranges out of order or overlapping (at ${hex(start)})`);
      copyWords(this.lastEnd, this.next);
      increment(this.next);
      if (compareWords(start, this.next) !== 0) this.push(this.next, 0);
    } else if (!isZero(start)) {
      this.push(new Uint32Array(this.wordsPerAddress), 0);
    }
    this.push(start, country);
    copyWords(end, this.lastEnd);
    this.hasLast = true;
  }

  build(): RangeList {
    if (this.hasLast && !isAllOnes(this.lastEnd)) {
      copyWords(this.lastEnd, this.next);
      increment(this.next);
      this.push(this.next, 0);
    }
    const n = this.wordsPerAddress;
    // Copies, so the spare capacity of the growing arrays is given back.
    return { wordsPerAddress: n, starts: this.starts.slice(0, this.count * n), countries: this.countries.slice(0, this.count) };
  }

  private push(start: Uint32Array, country: number): void {
    if (this.count > 0 && this.countries[this.count - 1] === country) return;
    if (this.count === this.countries.length) this.grow();
    const at = this.count * this.wordsPerAddress;
    for (let i = 0; i < this.wordsPerAddress; i++) this.starts[at + i] = start[i]!;
    this.countries[this.count] = country;
    this.count++;
  }

  private grow(): void {
    const starts = new Uint32Array(this.starts.length * 2);
    starts.set(this.starts);
    const countries = new Uint8Array(this.countries.length * 2);
    countries.set(this.countries);
    this.starts = starts;
    this.countries = countries;
  }
}

function compareWords(a: Uint32Array, b: Uint32Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

/** Adds one to a multi-word address; the caller has checked it is not the last address. */
function increment(words: Uint32Array): void {
  for (let i = words.length - 1; i >= 0; i--) {
    words[i] = words[i]! + 1; // a Uint32Array wraps 0xffffffff + 1 to 0: carry on
    if (words[i] !== 0) return;
  }
}

// Plain loops: this runs 700,000 times at start, and TypedArray#set or
// #every on one to four elements cost several times more.
function copyWords(from: Uint32Array, to: Uint32Array): void {
  for (let i = 0; i < from.length; i++) to[i] = from[i]!;
}

function isZero(words: Uint32Array): boolean {
  for (let i = 0; i < words.length; i++) if (words[i] !== 0) return false;
  return true;
}

function isAllOnes(words: Uint32Array): boolean {
  for (let i = 0; i < words.length; i++) if (words[i] !== 0xffffffff) return false;
  return true;
}
const hex = (words: Uint32Array) => Array.from(words, (word) => word.toString(16).padStart(8, "0")).join(":");
