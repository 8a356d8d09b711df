import { LocalProvider } from "./local-provider.ts";
import { loadPlaces } from "./places-dataset.ts";

export interface LoadedLocalProvider {
  provider: LocalProvider;
  places: number;
  loadMs: number;
}

/**
 * Reads the bundled places and builds their index: about half a second, once
 * at start, so that no request pays for it. (country-coder builds its own
 * border index when its module is imported.)
 */
export function loadLocalProvider(): LoadedLocalProvider {
  const started = performance.now();
  const places = loadPlaces();
  const provider = new LocalProvider(places);
  return { provider, places: places.count, loadMs: Math.round(performance.now() - started) };
}
