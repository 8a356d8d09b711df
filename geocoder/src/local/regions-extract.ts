/**
 * The first-level regions LOCAL ships (`geocoder/assets/regions.bin.gz`): each
 * region's country and name, and its boundary rings as integer coordinates.
 * `scripts/build-local-regions.ts` writes it from Natural Earth's admin-1
 * polygons; the geocoder reads it once at start. Integers because the point
 * tests then compute exactly (see region-grid.ts), and deltas because they
 * make the file compress to a third.
 *
 * Layout, gzipped: "LGR1", u32 header length, header JSON, zero padding to a
 * multiple of 4; then u32 ringEnds[rings], u16 ringRegions[rings] (padded to
 * 4 bytes), i32 coordinate deltas[2 × vertices], all little-endian.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The extract shipped with the geocoder (in its folder, so the Docker image has it too). */
export const regionsExtractPath = join(import.meta.dir, "../../assets/regions.bin.gz");

/** Coordinates are stored in 1e-5 degrees (about 1 m): Natural Earth's 10m data has no finer detail. */
export const unitsPerDegree = 100_000;

export interface Region {
  /** ISO 3166-1 alpha-2 of the country the region belongs to. */
  countryCode: string;
  name: string;
}

export interface RegionsExtract {
  /** Where the data came from, with its licence: shown in GET /geocoders and the logs. */
  source: string;
  regions: Region[];
  /** One past the last vertex of each ring; a ring's last vertex repeats its first. */
  ringEnds: Uint32Array;
  /** The region (index into `regions`) each ring bounds; holes are rings of their region like any other. */
  ringRegions: Uint16Array;
  /** x0, y0, x1, y1, …: longitude and latitude of every vertex in 1e-5 degrees. */
  coordinates: Int32Array;
}

const formatMagic = "LGR1";

interface Header {
  source: string;
  regions: Array<[countryCode: string, name: string]>;
  rings: number;
  vertices: number;
}

const padTo4 = (n: number) => (n + 3) & ~3;

export function encodeRegionsExtract(extract: RegionsExtract): Uint8Array<ArrayBuffer> {
  const rings = extract.ringEnds.length;
  const vertices = extract.coordinates.length / 2;
  const header: Header = {
    source: extract.source,
    regions: extract.regions.map((r) => [r.countryCode, r.name]),
    rings,
    vertices,
  };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const headerEnd = padTo4(8 + headerBytes.length);
  const ringEndsAt = headerEnd;
  const ringRegionsAt = ringEndsAt + rings * 4;
  const deltasAt = padTo4(ringRegionsAt + rings * 2);
  const bytes = new Uint8Array(deltasAt + vertices * 8);
  bytes.set(new TextEncoder().encode(formatMagic), 0);
  new DataView(bytes.buffer).setUint32(4, headerBytes.length, true);
  bytes.set(headerBytes, 8);
  new Uint32Array(bytes.buffer, ringEndsAt, rings).set(extract.ringEnds);
  new Uint16Array(bytes.buffer, ringRegionsAt, rings).set(extract.ringRegions);
  const deltas = new Int32Array(bytes.buffer, deltasAt, vertices * 2);
  for (let i = 0; i < deltas.length; i++) {
    deltas[i] = extract.coordinates[i]! - (i >= 2 ? extract.coordinates[i - 2]! : 0);
  }
  return Bun.gzipSync(bytes, { level: 9 });
}

export function readRegionsExtract(path = regionsExtractPath): RegionsExtract {
  return decodeRegionsExtract(new Uint8Array(readFileSync(path)));
}

export function decodeRegionsExtract(gzipped: Uint8Array<ArrayBuffer>): RegionsExtract {
  const bytes = Bun.gunzipSync(gzipped);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = new TextDecoder().decode(bytes.subarray(0, 4));
  if (magic !== formatMagic) throw new Error(`regions extract: expected format ${formatMagic}, found "${magic}"`);
  const headerLength = view.getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength))) as Header;
  const { rings, vertices } = header;
  const ringEndsAt = padTo4(8 + headerLength);
  const ringRegionsAt = ringEndsAt + rings * 4;
  const deltasAt = padTo4(ringRegionsAt + rings * 2);
  if (deltasAt + vertices * 8 !== bytes.byteLength) {
    throw new Error(`regions extract: ${bytes.byteLength} bytes, the header announces ${deltasAt + vertices * 8}`);
  }
  // Copies, so that the arrays are aligned whatever offset gunzip's buffer has, and own their memory.
  const ringEnds = new Uint32Array(bytes.slice(ringEndsAt, ringRegionsAt).buffer);
  const ringRegions = new Uint16Array(bytes.slice(ringRegionsAt, ringRegionsAt + rings * 2).buffer);
  const coordinates = new Int32Array(bytes.slice(deltasAt).buffer);
  for (let i = 2; i < coordinates.length; i++) coordinates[i] = coordinates[i]! + coordinates[i - 2]!;
  return {
    source: header.source,
    regions: header.regions.map(([countryCode, name]) => ({ countryCode, name })),
    ringEnds,
    ringRegions,
    coordinates,
  };
}
