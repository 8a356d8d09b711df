import type { Address } from "../addresses/address.ts";
import { completeAddress, type AddressParts } from "../addresses/address-fields.ts";
import type { Provider } from "../providers/provider.ts";
import type { ReverseQuery } from "../providers/reverse-query.ts";
import { countryAt } from "./country-lookup.ts";
import { PLACES_DATASET, type PlacesTable } from "./places-dataset.ts";
import { SphereIndex } from "./sphere-index.ts";

/**
 * How far the nearest place may be and still be called the point's
 * settlement. GeoNames' 1,000+ places are a few km apart in settled land;
 * beyond 50 km (outback, tundra, Antarctica) "the nearest town" is no longer
 * an address, so the answer keeps the country and gives settlement null.
 */
export const MAX_SETTLEMENT_KM = 50;

/**
 * LOCAL: reverse geocoding in-process from open data, for when no key or no
 * network is there. Country from country-coder's borders; settlement the
 * nearest GeoNames place of the same country. It knows no streets, house
 * numbers or postcodes, nor (yet) first-level regions: those are null.
 * `language` is ignored: names are GeoNames' main names and English country names.
 */
export class LocalProvider implements Provider {
  readonly name = "LOCAL";
  readonly url = `dataset:${PLACES_DATASET} + @rapideditor/country-coder (borders, ISC)`;

  constructor(
    private readonly places: PlacesTable,
    private readonly index: SphereIndex = new SphereIndex(places.latitudes, places.longitudes),
  ) {}

  /** Never rejects: a point at sea is simply no result. */
  async reverse(query: ReverseQuery): Promise<Address[]> {
    const address = this.lookup(query.latitude, query.longitude);
    return address ? [address] : [];
  }

  /** The synchronous lookup, for the benchmark and the tests. */
  lookup(latitude: number, longitude: number): Address | undefined {
    const country = countryAt(latitude, longitude);
    if (!country) return undefined;
    const { countries, names } = this.places;
    const nearest = this.index.nearest(latitude, longitude, MAX_SETTLEMENT_KM, (place) => country.codes.has(countries[place]!));
    const parts: AddressParts = {
      postcode: null,
      country: country.name,
      country_code: country.code,
      state: null,
      district: null,
      settlement: nearest ? names[nearest.index]! : null,
      street: null,
      house: null,
    };
    return completeAddress(parts, null) ?? undefined;
  }
}
