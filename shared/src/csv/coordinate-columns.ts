/**
 * Which columns of a CSV file hold a point's coordinates, by header name
 * (any case, spaces around ignored): the geocoder's `bun run geocode` and the
 * playground's file upload read files the same way. Pure: the browser
 * bundle imports it as it is.
 */
export const latitudeColumnNames = ["latitude", "lat"] as const;
export const longitudeColumnNames = ["longitude", "lon", "lng", "long"] as const;

/** The two columns' indexes, or what is missing, in words. */
export function coordinateColumns(header: readonly string[]): { latitude: number; longitude: number } | { missing: string } {
  const names = header.map((name) => name.trim().toLowerCase());
  const latitude = names.findIndex((name) => (latitudeColumnNames as readonly string[]).includes(name));
  const longitude = names.findIndex((name) => (longitudeColumnNames as readonly string[]).includes(name));
  if (latitude !== -1 && longitude !== -1) return { latitude, longitude };
  const [what, looked] = latitude === -1 ? ["latitude", latitudeColumnNames] : ["longitude", longitudeColumnNames];
  return { missing: `the header has no ${what} column (looked for ${looked.join(", ")}; found ${header.join(", ") || "nothing"})` };
}
