import { feature, iso1A2Code, iso1A2Codes } from "@rapideditor/country-coder";
import { englishCountryName } from "../addresses/country.ts";

/** The country a point lies in, as country-coder's borders say. */
export interface CountryAtPoint {
  /**
   * ISO 3166-1 alpha-2 of the territory level: a territory with its own ISO
   * code is named by it (Svalbard "SJ", Tahiti "PF", Puerto Rico "PR"), as
   * GeoNames does; metropolitan parts are their country (Saint-Louis "FR").
   */
  code: string;
  name: string;
  /**
   * Every ISO code whose area holds the point: the country and its
   * territories ("NO" and "SJ" on Svalbard, "FR" and "FX" in Saint-Louis),
   * so that a GeoNames place matches whichever of them it is filed under.
   */
  codes: ReadonlySet<string>;
}

/**
 * A country known only by its code (from another dataset's polygon, where
 * country-coder's coarser borders find none: the Cyprus buffer zone).
 */
export function countryOfCode(code: string): CountryAtPoint {
  return { code, name: englishCountryName(code) ?? code, codes: new Set([code]) };
}

/**
 * The country at a point, or undefined at sea (country-coder's borders
 * include territorial waters, ~12 nautical miles off the coast).
 * https://github.com/rapideditor/country-coder
 */
export function countryAt(latitude: number, longitude: number): CountryAtPoint | undefined {
  // country-coder's borders stop at -180: the same meridian as +180.
  const location: [number, number] = [longitude >= 180 ? longitude - 360 : longitude, latitude];
  // The code, not feature(): at this level the feature may be a part with no
  // code of its own (Great Britain), whose code iso1A2Code finds above it.
  const code = iso1A2Code(location, { level: "territory" });
  if (!code) return undefined;
  // Its English names differ from i18n-iso-countries' in places; the other providers' addresses use the latter.
  const name = englishCountryName(code) ?? feature(location, { level: "territory" })?.properties.nameEn ?? code;
  return { code, name, codes: new Set([code, ...iso1A2Codes(location)]) };
}
