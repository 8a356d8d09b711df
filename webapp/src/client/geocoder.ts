import { mount as mountGeocoderList } from "../components/geocoder-list/script.ts";
import { mount as mountManyPoints } from "../components/many-points/script.ts";
import { mount as mountPointLookup } from "../components/point-lookup/script.ts";
import { rootOf } from "./lib/find-parts.ts";

/** The geocoder playground (pages/geocoder-page.ts): the lookup of a point holds the map that many points are drawn on too. */
const lookup = mountPointLookup(rootOf("point-lookup"));
// The search by name is a file of its own, fetched once the field is first used: most visits never type in it.
// One fetch at a time; one that failed (the network gone) says so and is tried again at the next focus.
let searchLoading: Promise<void> | undefined;
const loadSearch = () => {
  searchLoading ??= import("../components/place-search/script.ts").then(
    ({ mount }) => mount(rootOf("place-search-panel"), { chosen: lookup.lookAt }),
    () => {
      searchLoading = undefined;
      rootOf("place-search-status").textContent = "The search could not be loaded: click the field to try again.";
    },
  );
  return searchLoading;
};
rootOf("place-search").addEventListener("focus", () => void loadSearch());
mountManyPoints(rootOf("many-panel"), { map: lookup.map, choice: lookup.choice });
mountGeocoderList(rootOf("geocoders-panel"), { onLoaded: lookup.offerPlatforms });
