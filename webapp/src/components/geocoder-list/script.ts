import { call, type Answer } from "../../client/lib/api-call.ts";
import { fill, h } from "../../client/lib/dom.ts";
import { findParts } from "../../client/lib/find-parts.ts";
import { geocoderListParts } from "./parts.ts";

export type Geocoder = Answer<"GET /geocoders">["geocoders"][number];

export interface GeocoderListDeps {
  /** The geocoders listed, for the page's other choices of one (the lookup's provider). */
  onLoaded(geocoders: readonly Geocoder[]): void;
}

/** Lists the registered geocoders, each with its URL, or says why they could not be loaded. */
export function mount(root: HTMLElement, deps: GeocoderListDeps): void {
  const { list, error } = findParts(root, geocoderListParts);
  void (async () => {
    try {
      const { geocoders } = await call("GET /geocoders");
      // The answer is the server's: an entry without a name and a URL is left out.
      const valid = (Array.isArray(geocoders) ? geocoders : []).filter((g) => typeof g?.name === "string" && typeof g.url === "string");
      fill(
        list,
        valid.length === 0
          ? h("li", { class: "muted" }, "None: this server has no geocoding provider configured.")
          : valid.map((g) => h("li", {}, h("strong", { class: "geocoder-name" }, g.name), h("code", { class: "geocoder-url" }, g.url))),
      );
      deps.onLoaded(valid);
    } catch (failure) {
      fill(list);
      fill(error, `The list of geocoders could not be loaded: ${failure instanceof Error ? failure.message : "unknown error"}`);
    } finally {
      list.removeAttribute("aria-busy");
    }
  })();
}
