import type { Address } from "../addresses/address.ts";
import type { ReverseQuery } from "./reverse-query.ts";

/**
 * A registered geocoder. `reverse` resolves with the addresses found (an
 * empty array when there is nothing there), or rejects with a ProviderError.
 */
export interface Provider {
  /** Upper case: GEOAPIFY, HERE, NOMINATIM, NOMINATIM_REPLICA_1, … */
  readonly name: string;
  /** The reverse endpoint as shown by GET /geocoders: never carries a key. */
  readonly url: string;
  reverse(query: ReverseQuery, signal?: AbortSignal): Promise<Address[]>;
}
