import { DeletionIndex } from "./deletion-index.ts";
import { editDistance } from "./edit-distance.ts";
import { foldedText } from "./folded-text.ts";
import { countryAliases, regionAbbreviations } from "./region-abbreviations.ts";

/** The places the search finds, as parallel arrays (local/places-dataset.ts), with each place's first-level region. */
export interface SearchablePlaces {
  count: number;
  names: readonly string[];
  /** ISO 3166-1 alpha-2, upper case. */
  countries: readonly string[];
  latitudes: Float64Array;
  longitudes: Float64Array;
  populations: Float64Array;
  /** 1 for a section of a city (a quartier, a suburb). */
  sections: Uint8Array;
  /** The place's first-level region's name ("Texas"), or undefined. */
  regionName(place: number): string | undefined;
  /** A country's English name, for a query that names it ("Paris, France"). */
  countryName(code: string): string | undefined;
}

export interface PlaceQuery {
  text: string;
  limit: number;
  /** Only places of these countries (alpha-2, upper case); absent, any. */
  countries?: ReadonlySet<string>;
  /** Places near this point rank higher. */
  near?: { latitude: number; longitude: number };
  /** Places in this box rank higher. */
  bbox?: { south: number; west: number; north: number; east: number };
}

export interface PlaceMatch {
  place: number;
  /** 0 to 1: how well the name matched (1 whole, less with typos or as a prefix), and the context when the query gave one. */
  confidence: number;
}

/** How much each way of matching a name is worth. */
const quality = { whole: 1, oneEdit: 0.8, twoEdits: 0.65, prefix: 0.8 } as const;

/** A name's first words name it too, a little less surely ("Frankfurt" for Frankfurt am Main, "New York" for New York City). */
const firstWordsShare = 0.95;
/** How many first words of a longer name are indexed as names of their own. */
const maxFirstWords = 3;

/** Past this length a name is not looked for with typos (each query's cost stays bounded, whatever it sends). */
const maxFuzzyLength = 40;
/** The words of a query read: a place's name and its context are a few words; the rest is ignored. */
const maxQueryWords = 8;

/**
 * LOCAL's forward search: places by name, offline, typo tolerant, in
 * memory (docs/geocoder.md). Names and queries are folded alike
 * (folded-text.ts). A query is read as a name, then what follows it as
 * context: "Paris, TX", "Paris Texas", "Springfield IL", "London Ontario",
 * "Paris France" (a region by its name or, in the United States, Canada and
 * Australia, its short form; a country by code or name). A name is found
 * whole; else within one edit (up to 7 letters) or two (8 and more), a swap
 * of neighbours counting one (deletion-index.ts); else as the start of
 * names (autocomplete). Ranked by how well it matched, whether the context
 * holds, population and the bias (near a point, in a box); ties by
 * population, then by the table's order: the same query, the same answer.
 */
export class PlaceSearch {
  /** Every distinct folded name, sorted (the prefix search reads a range). */
  private readonly keys: string[];
  /** The places of key k: placesOfKey[keyStart[k] .. keyStart[k + 1]), each 2 × place, + 1 when the key is only its name's first words. */
  private readonly keyStart: Uint32Array;
  private readonly placesOfKey: Uint32Array;
  private readonly deletions: DeletionIndex;
  /** Key numbers by first letter and length (`a:9`): where a name two typos away is looked for when the deletions find none. */
  private readonly byStartAndLength: Map<string, number[]>;
  /** Each place's region and country, folded, for the context of a query. */
  private readonly foldedRegions: (string | undefined)[];
  private readonly countryCodesByName: Map<string, string>;
  /** Every region's name and short form, folded: a context that is none of them (nor a country) is skipped at once. */
  private readonly regionNames: Set<string>;

  constructor(private readonly places: SearchablePlaces) {
    // Each place under its whole name, and under its first words (2 × place + 1).
    const named: Array<[key: string, entry: number]> = [];
    for (let place = 0; place < places.count; place++) {
      const name = foldedText(places.names[place]!);
      if (name === "") continue;
      named.push([name, 2 * place]);
      const words = name.split(" ");
      for (let count = 1; count < Math.min(words.length, maxFirstWords + 1); count++) {
        const first = words.slice(0, count).join(" ");
        if (first.length >= 3) named.push([first, 2 * place + 1]);
      }
    }
    // Sorted by key (a stable sort: a key's places stay in the table's order), then read in one pass: the keys,
    // where each one's places start, and the places. No set or map of 140,000 names to build.
    named.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.keys = [];
    const starts: number[] = [];
    this.placesOfKey = new Uint32Array(named.length);
    for (const [at, [key, entry]] of named.entries()) {
      if (this.keys[this.keys.length - 1] !== key) {
        this.keys.push(key);
        starts.push(at);
      }
      this.placesOfKey[at] = entry;
    }
    starts.push(named.length);
    this.keyStart = Uint32Array.from(starts);
    this.deletions = new DeletionIndex(this.keys);
    this.byStartAndLength = new Map();
    for (const [number, key] of this.keys.entries()) {
      const bucket = `${key[0]}:${key.length}`;
      const numbers = this.byStartAndLength.get(bucket);
      if (numbers) numbers.push(number);
      else this.byStartAndLength.set(bucket, [number]);
    }
    // A few thousand regions for the whole table: each name folded once.
    const foldedRegionNames = new Map<string, string>();
    this.foldedRegions = Array.from({ length: places.count }, (_, place) => {
      const region = places.regionName(place);
      if (region === undefined) return undefined;
      let folded = foldedRegionNames.get(region);
      if (folded === undefined) foldedRegionNames.set(region, (folded = foldedText(region)));
      return folded;
    });
    this.regionNames = new Set(this.foldedRegions.filter((region) => region !== undefined));
    for (const abbreviations of Object.values(regionAbbreviations)) for (const short of Object.keys(abbreviations)) this.regionNames.add(short);
    this.countryCodesByName = new Map(Object.entries(countryAliases));
    for (const code of new Set(places.countries)) {
      const name = places.countryName(code);
      if (name) this.countryCodesByName.set(foldedText(name), code);
      this.countryCodesByName.set(code.toLowerCase(), code);
    }
  }

  /** Distinct names indexed, and entries of the deletion index (for the logs and the bench). */
  get sizes(): { names: number; deletions: number } {
    return { names: this.keys.length, deletions: this.deletions.size };
  }

  search(query: PlaceQuery): PlaceMatch[] {
    const scores = new Map<number, { score: number; confidence: number }>();
    const keep = (place: number, score: number, confidence: number) => {
      const held = scores.get(place);
      if (!held || held.score < score) scores.set(place, { score, confidence });
    };
    // A context that names no region or country anywhere is no context: the words are the name's, or nothing.
    const ways = readings(query.text).filter(({ context }) => context === "" || this.couldBeContext(context));
    const consider = (found: Map<number, number>, context: string) => {
      for (const [place, matched] of found) {
        if (query.countries && !query.countries.has(this.places.countries[place]!)) continue;
        const holds = context === "" ? undefined : this.contextHolds(place, context);
        // A context that does not hold makes this reading unlikely, not impossible ("Paris Texas" read as a name).
        const confidence = holds === false ? matched * 0.4 : matched;
        keep(place, confidence + (holds ? 0.4 : 0) + this.weight(place, query), confidence);
      }
    };
    for (const { name, context } of ways) consider(this.named(name, context === ""), context);
    // Nothing at all: each reading's name may be two typos away (the costlier look, so only now).
    if (scores.size === 0) for (const { name, context } of ways) consider(this.twoTyposAway(name), context);
    const { populations } = this.places;
    return [...scores]
      .sort(([a, x], [b, y]) => y.score - x.score || populations[b]! - populations[a]! || a - b)
      .slice(0, query.limit)
      .map(([place, { confidence }]) => ({ place, confidence: Math.round(Math.min(1, confidence) * 1000) / 1000 }));
  }

  /** The places whose name is `name`, or near it, with how well each matched. `completing`: the name may be a prefix. */
  private named(name: string, completing: boolean): Map<number, number> {
    const found = new Map<number, number>();
    const add = (key: number, value: number) => {
      for (let i = this.keyStart[key]!; i < this.keyStart[key + 1]!; i++) {
        const entry = this.placesOfKey[i]!;
        const place = entry >>> 1;
        const worth = entry & 1 ? value * firstWordsShare : value;
        if ((found.get(place) ?? 0) < worth) found.set(place, worth);
      }
    };
    const whole = this.firstKeyFrom(name);
    if (this.keys[whole] === name) add(whole, quality.whole);
    // No name is longer than maxFuzzyLength: a longer query is matched whole or as a prefix only.
    const maxEdits = name.length > maxFuzzyLength ? undefined : name.length >= 8 ? 2 : name.length >= 4 ? 1 : undefined;
    if (maxEdits !== undefined) {
      for (const key of this.deletions.candidates(name, maxEdits)) {
        const distance = editDistance(name, this.keys[key]!, maxEdits);
        if (distance === 1) add(key, quality.oneEdit);
        else if (distance === 2) add(key, quality.twoEdits);
      }
    }
    if (completing && name.length >= 2) this.completions(name, add);
    return found;
  }

  /**
   * Names two typos from `name` that the deletions cannot meet (a letter missing and two swapped), for a
   * query nothing else found: the names of its first letter and a length within two, measured one by one.
   */
  private twoTyposAway(name: string): Map<number, number> {
    const found = new Map<number, number>();
    if (name.length < 7 || name.length > maxFuzzyLength) return found;
    for (let length = name.length - 2; length <= name.length + 2; length++) {
      for (const key of this.byStartAndLength.get(`${name[0]}:${length}`) ?? []) {
        if (editDistance(name, this.keys[key]!, 2) > 2) continue;
        for (let i = this.keyStart[key]!; i < this.keyStart[key + 1]!; i++) {
          const entry = this.placesOfKey[i]!;
          const worth = entry & 1 ? quality.twoEdits * firstWordsShare : quality.twoEdits;
          if ((found.get(entry >>> 1) ?? 0) < worth) found.set(entry >>> 1, worth);
        }
      }
    }
    return found;
  }

  /** Names that start with `prefix` (as far as 2,000 of them): people and the bias rank them. */
  private completions(prefix: string, add: (key: number, value: number) => void): void {
    const from = this.firstKeyFrom(prefix);
    for (let key = from; key < this.keys.length && key < from + 2_000 && this.keys[key]!.startsWith(prefix); key++) {
      if (this.keys[key] === prefix) continue;
      add(key, quality.prefix);
    }
  }

  /** The number of the first key not before `text` in the sorted keys (their count when every key is). */
  private firstKeyFrom(text: string): number {
    let from = 0;
    let to = this.keys.length;
    while (from < to) {
      const middle = (from + to) >>> 1;
      if (this.keys[middle]! < text) from = middle + 1;
      else to = middle;
    }
    return from;
  }

  /** Whether `context` names some region or country, or a region then a country: else no place's context holds. */
  private couldBeContext(context: string): boolean {
    const words = context.split(" ");
    for (let cut = 0; cut <= words.length; cut++) {
      const region = words.slice(0, cut).join(" ");
      const country = words.slice(cut).join(" ");
      if ((region === "" || this.regionNames.has(region)) && (country === "" || this.countryCodesByName.has(country)) && (region || country)) return true;
    }
    return false;
  }

  /** Whether `context` names the place's region, its country, or the region then the country ("illinois usa"). */
  private contextHolds(place: number, context: string): boolean {
    const words = context.split(" ");
    for (let cut = 0; cut <= words.length; cut++) {
      const region = words.slice(0, cut).join(" ");
      const country = words.slice(cut).join(" ");
      if ((region === "" || this.regionIs(place, region)) && (country === "" || this.countryIs(place, country)) && (region || country)) return true;
    }
    return false;
  }

  private regionIs(place: number, text: string): boolean {
    const own = this.foldedRegions[place];
    if (own === undefined) return false;
    if (own === text) return true;
    const spelled = regionAbbreviations[this.places.countries[place]!]?.[text];
    return spelled !== undefined && foldedText(spelled) === own;
  }

  private countryIs(place: number, text: string): boolean {
    return this.countryCodesByName.get(text) === this.places.countries[place];
  }

  /** What makes one of two equal matches the likelier: people, the bias, being a town rather than a part of one. */
  private weight(place: number, query: PlaceQuery): number {
    const { populations, latitudes, longitudes, sections } = this.places;
    let weight = 0.5 * Math.min(1, Math.log10(populations[place]! + 1) / 7);
    if (query.near) weight += 0.35 * Math.exp(-kmBetween(query.near.latitude, query.near.longitude, latitudes[place]!, longitudes[place]!) / 300);
    if (query.bbox && inBox(query.bbox, latitudes[place]!, longitudes[place]!)) weight += 0.35;
    if (sections[place] === 1) weight -= 0.1;
    return weight;
  }
}

/**
 * The ways to read a query as a name and a context: with a comma, what is
 * before it and what is after; without, every split of its words, the whole
 * first (a name of several words, "New York", "San José").
 */
function readings(text: string): Array<{ name: string; context: string }> {
  const comma = text.indexOf(",");
  if (comma !== -1) {
    const name = foldedText(text.slice(0, comma)).split(" ").slice(0, maxQueryWords).join(" ");
    const context = foldedText(text.slice(comma + 1))
      .split(" ")
      .slice(0, maxQueryWords)
      .join(" ");
    return name === "" ? [] : [{ name, context }];
  }
  const words = foldedText(text).split(" ").filter(Boolean).slice(0, maxQueryWords);
  return words.map((_, i) => ({ name: words.slice(0, words.length - i).join(" "), context: words.slice(words.length - i).join(" ") }));
}

function inBox(box: NonNullable<PlaceQuery["bbox"]>, latitude: number, longitude: number): boolean {
  if (latitude < box.south || latitude > box.north) return false;
  // A box across the antimeridian has its west edge east of its east edge.
  return box.west <= box.east ? longitude >= box.west && longitude <= box.east : longitude >= box.west || longitude <= box.east;
}

/** Great-circle distance in km (haversine). */
function kmBetween(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const radians = Math.PI / 180;
  const dLat = (lat2 - lat1) * radians;
  const dLon = (lon2 - lon1) * radians;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * radians) * Math.cos(lat2 * radians) * Math.sin(dLon / 2) ** 2;
  return 12_742 * Math.asin(Math.min(1, Math.sqrt(a)));
}
