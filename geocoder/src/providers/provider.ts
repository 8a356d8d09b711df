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
  /**
   * Answers in-process, without the network (LOCAL): it cannot hang, so it is
   * still asked when the chain's time is up, and its answers after a network
   * provider failed are fallbacks.
   */
  readonly offline: boolean;
  reverse(query: ReverseQuery, signal?: AbortSignal, options?: ReverseOptions): Promise<Address[]>;
}

/** How patient one call may be. */
export interface ReverseOptions {
  /**
   * The longest wait for a slot of our own rate limit for the provider
   * before answering rate_limited; default the provider's own (2 s). A
   * job's points wait longer, so they are answered at the provider's pace
   * rather than by the next provider (jobs/).
   */
  slotWaitMs?: number;
}
