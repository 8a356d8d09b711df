/**
 * Where the link page's countries map (visits-panel.ts) finds the map file's
 * reader. The geocoder playground's map is a component now
 * (components/geocoder-map); this name stays until the link page moves on.
 */
export { fetchWorldMap } from "./world-map-file.ts";
