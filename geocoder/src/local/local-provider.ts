import type { Address } from "../addresses/address.ts";
import { completeAddress, type AddressParts } from "../addresses/address-fields.ts";
import type { Provider } from "../providers/provider.ts";
import type { ReverseQuery } from "../providers/reverse-query.ts";
import { countryAt, countryOfCode } from "./country-lookup.ts";
import { placesDataset, type PlacesTable } from "./places-dataset.ts";
import type { RegionGrid } from "./region-grid.ts";
import { Settlements } from "./settlements.ts";
import { englishCountryName } from "../addresses/country.ts";
import { PlaceSearch, type SearchablePlaces } from "../search/place-search.ts";
import type { ForwardPlace, ForwardQuery } from "../providers/forward-query.ts";

/**
 * How far the nearest place may be and still be called the point's
 * settlement. GeoNames' 1,000+ places are a few km apart in settled land;
 * beyond 50 km (outback, tundra, Antarctica) "the nearest town" is no longer
 * an address, so the answer keeps the country and gives settlement null.
 */
export const maxSettlementKm = 50;

/**
 * Off the coast (outside every land polygon, inside a country's waters), how
 * near one of its towns a point must be to still get an answer: a harbour, a
 * bay, a boat by the shore, an island too small for the 1:10m polygons.
 * Farther out is the open sea, answered with no result, however far
 * country-coder's areas around small island states reach.
 */
export const maxOffshoreKm = 20;

/**
 * LOCAL: reverse geocoding in-process from open data, for when no key or no
 * network is there. Land or sea and the first-level region from Natural
 * Earth's admin-1 polygons; country from country-coder's borders;
 * settlement and district from GeoNames' places of the same region, by the
 * rule in settlements.ts (distance weighed against size; a city's parts are
 * its districts). It knows no streets, house numbers or postcodes: those are
 * null.
 * `language` is ignored: names are GeoNames' main names, Natural Earth's
 * English region names and English country names.
 */
export class LocalProvider implements Provider {
  readonly name = "LOCAL";
  readonly url: string;
  readonly offline = true;

  private readonly settlements: Settlements;
  /** The forward search over the same places (search/place-search.ts), built at start. */
  readonly search: PlaceSearch;
  /** The places as the search reads them (the bench builds a second index from them, to time it alone). */
  readonly searchable: SearchablePlaces;

  constructor(
    private readonly places: PlacesTable,
    private readonly regions: RegionGrid,
  ) {
    this.settlements = new Settlements(places, regions, maxOffshoreKm);
    this.searchable = {
      ...places,
      regionName: (place) => this.settlements.regionOfPlace(place)?.name || undefined,
      countryName: (code) => englishCountryName(code) ?? undefined,
    };
    this.search = new PlaceSearch(this.searchable);
    this.url = `dataset:${placesDataset} + ${regions.source} + @rapideditor/country-coder (borders, ISC)`;
  }

  /** Places by name (search/place-search.ts), as the chain's forward answers: never rejects. */
  async forward(query: ForwardQuery): Promise<ForwardPlace[]> {
    const matches = this.search.search({
      text: query.text,
      limit: query.limit,
      countries: query.countries && new Set(query.countries),
      near: query.near,
      bbox: query.bbox,
    });
    const { latitudes, longitudes, ids } = this.places;
    return matches.map(({ place, confidence }) => ({
      address: this.placeAddress(place),
      latitude: latitudes[place]!,
      longitude: longitudes[place]!,
      confidence,
      providerId: `geonames:${ids[place]}`,
    }));
  }

  /** A place of the table as an address, with its point: the forward search's answer. */
  placeAddress(place: number): Address {
    const { names, countries } = this.places;
    const region = this.settlements.regionOfPlace(place);
    const parts: AddressParts = {
      postcode: null,
      country: englishCountryName(countries[place]!) ?? countries[place]!,
      country_code: countries[place]!,
      state: region && region.name !== "" ? region.name : null,
      district: null,
      settlement: names[place]!,
      street: null,
      house: null,
    };
    return completeAddress(parts, null)!;
  }

  /** Never rejects: a point at sea is simply no result. */
  async reverse(query: ReverseQuery): Promise<Address[]> {
    const address = this.lookup(query.latitude, query.longitude);
    return address ? [address] : [];
  }

  /** The synchronous lookup, for the benchmark and the tests. */
  lookup(latitude: number, longitude: number): Address | undefined {
    const region = this.regions.regionAt(latitude, longitude);
    const country = countryAt(latitude, longitude) ?? (region && countryOfCode(region.countryCode));
    if (!country) return undefined;
    const maxKm = region ? maxSettlementKm : maxOffshoreKm;
    // Off the coast (or on a shore the 1:10m polygons leave out), the state is the nearest coast's.
    const stateRegion = region ?? this.regions.nearestRegion(latitude, longitude, maxOffshoreKm);
    // Where the two datasets' borders disagree (by a few hundred metres), a region of the neighbour is no state of this country.
    const ownRegion = stateRegion && country.codes.has(stateRegion.countryCode) ? stateRegion : undefined;
    const found = this.settlements.find(latitude, longitude, { countryCodes: country.codes, region: ownRegion, maxKm });
    if (!region && !found) return undefined;
    const state = ownRegion && ownRegion.name !== "" ? ownRegion.name : null;
    const parts: AddressParts = {
      postcode: null,
      country: country.name,
      country_code: country.code,
      state,
      district: found?.district ?? null,
      settlement: found?.settlement ?? null,
      street: null,
      house: null,
    };
    return completeAddress(parts, null) ?? undefined;
  }
}
