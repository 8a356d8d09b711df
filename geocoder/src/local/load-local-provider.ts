import { LocalProvider } from "./local-provider.ts";
import { loadPlaces } from "./places-dataset.ts";
import { RegionGrid } from "./region-grid.ts";
import { readRegionsExtract } from "./regions-extract.ts";

export interface LoadedLocalProvider {
  provider: LocalProvider;
  places: number;
  regions: number;
  loadMs: number;
}

/**
 * Reads the bundled places and regions and builds their indexes, once at
 * start, so that no request pays for it: 2.0-2.4 s here (`bun run
 * bench:local`). (country-coder builds its own border index when its module
 * is imported.)
 */
export function loadLocalProvider(): LoadedLocalProvider {
  const started = performance.now();
  const places = loadPlaces();
  const regions = new RegionGrid(readRegionsExtract());
  const provider = new LocalProvider(places, regions);
  return { provider, places: places.count, regions: regions.regions.length, loadMs: Math.round(performance.now() - started) };
}
