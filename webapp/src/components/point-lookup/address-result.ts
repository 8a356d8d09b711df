import { h } from "../../client/lib/dom.ts";
import { addressFields, cacheLevelWords, type Address } from "../../client/lib/geocode-words.ts";

/**
 * What the result panel shows of an answer: the provider that answered and
 * the cache level it came from (the answer's headers), every field of every
 * address (or that there is none), and the request as sent.
 */
export function addressResult(request: string, headers: Headers, addresses: readonly Address[]): HTMLElement[] {
  const line = h("p", { class: "request small muted" }, "Request: ", h("code", {}, request));
  if (addresses.length === 0) return [answerSource(headers), h("p", { class: "message no-address" }, "No address here (open sea or no data)"), line];
  return [answerSource(headers), ...addresses.map((address, i) => addressSection(address, i, addresses.length)), line];
}

function answerSource(headers: Headers): HTMLElement {
  const provider = headers.get("x-geocoder-provider");
  const cache = headers.get("x-cache");
  return h(
    "dl",
    { class: "stats answer-source" },
    h("div", { class: "stat" }, h("dt", {}, "Answered by"), h("dd", { "data-field": "provider" }, provider ?? "—")),
    h(
      "div",
      { class: "stat" },
      h("dt", {}, "Cache"),
      h("dd", { "data-field": "cache" }, cacheLevelWords(cache), " ", h("code", { class: "cache-header" }, `X-Cache: ${cache ?? "—"}`)),
    ),
  );
}

function addressSection(address: Address, index: number, count: number): HTMLElement {
  return h(
    "section",
    { class: "address", "aria-label": `Address ${index + 1} of ${count}` },
    count > 1 ? h("h3", {}, `Address ${index + 1} of ${count}`) : null,
    h(
      "dl",
      { class: "address-fields" },
      addressFields.map(({ key, label }) => {
        // The answer is the server's: a field it left out shows as none rather than breaking the page.
        const value: unknown = (address as Partial<Address> | null)?.[key];
        const none = value === null || value === undefined;
        return h(
          "div",
          {},
          h("dt", {}, label, " ", h("code", {}, key)),
          h("dd", { "data-field": key, class: none ? "none" : null }, none ? "—" : String(value)),
        );
      }),
    ),
  );
}
