import { mount as mountGeocoderList } from "../components/geocoder-list/script.ts";
import { mount as mountManyPoints } from "../components/many-points/script.ts";
import { mount as mountPointLookup } from "../components/point-lookup/script.ts";
import { rootOf } from "./lib/find-parts.ts";

/** The geocoder playground (pages/geocoder-page.ts): the lookup of a point holds the map that many points are drawn on too. */
const lookup = mountPointLookup(rootOf("point-lookup"));
// The search by name is a file of its own, fetched once the field is first used: most visits never type in it.
const searchField = rootOf("place-search");
const mountSearch = () => import("../components/place-search/script.ts").then(({ mount }) => mount(rootOf("place-search-panel"), { chosen: lookup.lookAt }));
searchField.addEventListener("focus", () => void mountSearch(), { once: true });
mountManyPoints(rootOf("many-panel"), { map: lookup.map, choice: lookup.choice });
mountGeocoderList(rootOf("geocoders-panel"), { onLoaded: lookup.offerPlatforms });
