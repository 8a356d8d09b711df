import { mount as mountGeocoderList } from "../components/geocoder-list/script.ts";
import { mount as mountManyPoints } from "../components/many-points/script.ts";
import { mount as mountPointLookup } from "../components/point-lookup/script.ts";
import { rootOf } from "./lib/find-parts.ts";

/** The geocoder playground (pages/geocoder-page.ts): the lookup of a point holds the map that many points are drawn on too. */
const lookup = mountPointLookup(rootOf("point-lookup"));
mountManyPoints(rootOf("many-panel"), { map: lookup.map, choice: lookup.choice });
mountGeocoderList(rootOf("geocoders-panel"), { onLoaded: lookup.offerPlatforms });
