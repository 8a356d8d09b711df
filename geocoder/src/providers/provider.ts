import type { Address } from "../addresses/address.ts";
import type { ReverseQuery } from "./reverse-query.ts";
import type { ForwardPlace, ForwardQuery } from "./forward-query.ts";

/**
 * A registered geocoder. `reverse` resolves with the addresses found (an
 * empty array when there is nothing there), or rejects with a ProviderError.
 */
export interface Provider {
  /** Upper case: GEOAPIFY, HERE, NOMINATIM, NOMINATIM_REPLICA_1, … */
  readonly name: string;
  /** The reverse endpoint as shown by GET /geocoders: never carries a key. */
  readonly url: string;
  /**
   * Answers in-process, without the network (LOCAL): it cannot hang, so it is
   * still asked when the chain's time is up, and its answers after a network
   * provider failed are fallbacks.
   */
  readonly offline: boolean;
  reverse(query: ReverseQuery, signal?: AbortSignal, options?: ReverseOptions): Promise<Address[]>;
  /** From a name to places, best first (GET /geocode): resolves or rejects as `reverse` does. Absent: the provider has none. */
  forward?(query: ForwardQuery, signal?: AbortSignal, options?: ReverseOptions): Promise<ForwardPlace[]>;
}

/** How patient one call may be. */
export interface ReverseOptions {
  /**
   * A job's point (jobs/): wait up to this long for a spare slot of our
   * own rate limit for the provider (one the spacing leaves free, never
   * booked ahead of a single query or a batch), so it is answered at the
   * provider's pace rather than by the next provider. Absent: book the
   * next slot if it is at most the provider's own wait (2 s) away.
   */
  slotWaitMs?: number;
}
