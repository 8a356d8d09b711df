import type { PlacesTable } from "./places-dataset.ts";
import type { RegionGrid } from "./region-grid.ts";
import type { Region } from "./regions-extract.ts";
import { SphereIndex } from "./sphere-index.ts";

/**
 * How LOCAL names the place a person would: the rule, in one file.
 *
 * A place's *reach* is the radius of a disc holding its population at a dense
 * city's density, 20,000 inhabitants per km² (about Paris's): 0.004 km per
 * square root of an inhabitant. A city of 1,000,000 reaches 4 km, one of
 * 8,800,000 (New York) 11.9 km, a village of 1,200 only 140 m, so every place
 * reaches at least `minReachKm`.
 *
 * 1. Same region. The settlement is a place of the point's own first-level
 *    region (and country); only where that region has none within range does
 *    the rest of the country count. Not in a city-state, whose regions are
 *    the city's own parts (Singapore's five districts): a country where one
 *    place holds `cityStateShare` of the population of all its places.
 * 2. Distance against size. Of those, the place whose distance is the
 *    smallest multiple of its reach: a city of a million 4 km away (1 reach)
 *    beats a village of 1,200 at 1 km (1.4 reaches), the village wins at
 *    500 m.
 * 3. Parts of a city are districts. A place whose own point lies within
 *    `partOfCore` of the core (the reach, without the minimum) of a bigger
 *    place of its region is part of it: Manhattan and Brooklyn of New York City, Camden Town of
 *    London, Kreuzberg of Berlin. So are GeoNames' sections of cities (PPLX),
 *    of the nearest bigger place within `sectionParentKm` if no core holds
 *    them. When the place found is a part, the settlement is the city it is
 *    part of and the part is the district (the part directly under the city,
 *    when parts nest).
 *
 * Known limits: a town that touches a much bigger city near its core can be
 * taken for its part (Frederiksberg in Copenhagen), and a point at a city's
 * edge near a smaller town's centre is given the town (Paris's Porte de
 * Saint-Cloud, by Boulogne-Billancourt): population points are all GeoNames
 * has, not outlines.
 */
export const kmPerRootInhabitant = 0.004;
export const minReachKm = 0.7;
/** A country is a city-state when one place holds this share of the people of all its places (Singapore 93 %, Hong Kong 73 %). */
export const cityStateShare = 0.7;
/** A place is part of a bigger one when it lies within this much of the bigger one's core. */
export const partOfCore = 0.8;
/** How far a section of a city (PPLX) looks for the place it belongs to when no core holds it. */
export const sectionParentKm = 10;

const noPlace = -1;

/** The core radius of a place of this population, in km. */
export function coreKm(population: number): number {
  return kmPerRootInhabitant * Math.sqrt(Math.max(0, population));
}

/** The reach of a place of this population, in km: its core, and never under `minReachKm`. */
export function reachKm(population: number): number {
  return Math.max(minReachKm, coreKm(population));
}

export interface SettlementQuery {
  /** The country's codes (a territory may have two). */
  countryCodes: ReadonlySet<string>;
  /** The point's first-level region, when it has one. */
  region: Region | undefined;
  maxKm: number;
}

export interface FoundSettlement {
  settlement: string;
  district: string | null;
  /** The place named as settlement, by its number in the table. */
  place: number;
}

export class Settlements {
  private readonly index: SphereIndex;
  /** Each place's region, as a number into `regions.regions`; noPlace where it has none. */
  private readonly regionOf: Int32Array;
  private readonly regionNumbers: Map<Region, number>;
  private readonly regionList: readonly Region[];
  /** The bigger place each place is part of, or noPlace. */
  private readonly parentOf: Int32Array;
  /** Countries (alpha-2) that are one city: the region rule does not apply. */
  private readonly cityStates: ReadonlySet<string>;

  constructor(
    private readonly places: PlacesTable,
    regions: RegionGrid,
    offshoreKm: number,
  ) {
    const { count, latitudes, longitudes, populations } = places;
    this.regionList = regions.regions;
    this.regionNumbers = new Map(regions.regions.map((region, number) => [region, number]));
    this.regionOf = new Int32Array(count);
    for (let i = 0; i < count; i++) {
      // A coastal town the 1:10m coastline leaves offshore takes the nearest coast's region.
      const region = regions.regionAt(latitudes[i]!, longitudes[i]!) ?? regions.nearestRegion(latitudes[i]!, longitudes[i]!, offshoreKm);
      this.regionOf[i] = region ? this.regionNumbers.get(region)! : noPlace;
    }
    this.index = new SphereIndex(latitudes, longitudes, Float64Array.from(populations, reachKm));
    this.parentOf = this.findParents();
    this.cityStates = findCityStates(places);
  }

  /** A place's first-level region (the one its point lies in, or the nearest coast's), or undefined. */
  regionOfPlace(place: number): Region | undefined {
    const number = this.regionOf[place]!;
    return number === noPlace ? undefined : this.regionList[number];
  }

  /** The settlement (and district) of a point, or undefined when no place of the country is within `maxKm`. */
  find(latitude: number, longitude: number, query: SettlementQuery): FoundSettlement | undefined {
    const { countries, sections } = this.places;
    const usable = (place: number) => query.countryCodes.has(countries[place]!) && (sections[place] === 0 || this.parentOf[place] !== noPlace);
    const regionRuled = query.region !== undefined && !this.isCityState(query.countryCodes);
    const region = regionRuled ? this.regionNumbers.get(query.region!) : undefined;
    const found =
      (region !== undefined ? this.index.lightest(latitude, longitude, query.maxKm, (place) => this.regionOf[place] === region && usable(place)) : undefined) ??
      this.index.lightest(latitude, longitude, query.maxKm, usable);
    if (!found) return undefined;
    return this.named(found.index);
  }

  private isCityState(countryCodes: ReadonlySet<string>): boolean {
    for (const code of countryCodes) if (this.cityStates.has(code)) return true;
    return false;
  }

  private named(place: number): FoundSettlement {
    let city = place;
    let district = noPlace;
    while (this.parentOf[city] !== noPlace) {
      district = city;
      city = this.parentOf[city]!;
    }
    const { names } = this.places;
    return { settlement: names[city]!, district: district === noPlace ? null : names[district]!, place: city };
  }

  /**
   * For every place, the bigger place of its country and region whose core
   * holds it (the one it is deepest inside, in units of that core); for a
   * section of a city no core holds, the nearest bigger place within
   * `sectionParentKm`. A parent is always strictly bigger, so parts never
   * loop.
   */
  private findParents(): Int32Array {
    const { count, latitudes, longitudes, populations, countries, sections } = this.places;
    const parentOf = new Int32Array(count).fill(noPlace);
    const depth = new Float64Array(count).fill(Number.POSITIVE_INFINITY);
    const sameArea = (a: number, b: number) => this.regionOf[a] === this.regionOf[b] && countries[a] === countries[b];

    for (let city = 0; city < count; city++) {
      if (sections[city] === 1) continue;
      const core = coreKm(populations[city]!);
      if (core < 0.05) continue;
      this.index.forEachWithin(latitudes[city]!, longitudes[city]!, core * partOfCore, (part, km) => {
        if (part === city || populations[part]! >= populations[city]! || !sameArea(part, city)) return;
        const inside = km / core;
        if (inside < depth[part]!) {
          depth[part] = inside;
          parentOf[part] = city;
        }
      });
    }

    for (let section = 0; section < count; section++) {
      if (sections[section] === 0 || parentOf[section] !== noPlace) continue;
      let nearestKm = sectionParentKm;
      this.index.forEachWithin(latitudes[section]!, longitudes[section]!, sectionParentKm, (city, km) => {
        if (sections[city] === 1 || populations[city]! <= populations[section]! || !sameArea(city, section) || km >= nearestKm) return;
        nearestKm = km;
        parentOf[section] = city;
      });
    }
    return parentOf;
  }
}

/** Countries where one place holds at least `cityStateShare` of the population of all their places. */
function findCityStates({ count, countries, populations, sections }: PlacesTable): Set<string> {
  const total = new Map<string, number>();
  const largest = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    if (sections[i] === 1) continue;
    const country = countries[i]!;
    total.set(country, (total.get(country) ?? 0) + populations[i]!);
    largest.set(country, Math.max(largest.get(country) ?? 0, populations[i]!));
  }
  return new Set([...total].filter(([country, people]) => people > 0 && largest.get(country)! >= cityStateShare * people).map(([country]) => country));
}
