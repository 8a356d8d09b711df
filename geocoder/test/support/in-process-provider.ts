import type { Address } from "../../src/addresses/address.ts";
import type { Provider } from "../../src/providers/provider.ts";
import type { ReverseQuery } from "../../src/providers/reverse-query.ts";

export interface InProcessProvider extends Provider {
  /** Every query it was asked, in order. */
  readonly asked: ReverseQuery[];
}

/**
 * An offline provider standing in for LOCAL (whose data takes ~0.5 s to
 * load): named LOCAL so the default order places it, it answers `addresses`
 * at once, without the network, and records what it was asked.
 */
export function inProcessProvider(addresses: Address[], name = "LOCAL"): InProcessProvider {
  const asked: ReverseQuery[] = [];
  return {
    name,
    url: "test:in-process",
    offline: true,
    asked,
    async reverse(query) {
      asked.push(query);
      return addresses;
    },
  };
}

/** What LOCAL answers in Vienna: country, region and town, nothing finer. */
export const localVienna: Address = {
  formatted_address: "Vienna, Vienna, Austria",
  postcode: null,
  country: "Austria",
  country_code: "AT",
  state: "Vienna",
  district: null,
  settlement: "Vienna",
  street: null,
  house: null,
};
