/**
 * A latitude and longitude written as people copy them from maps and
 * spreadsheets: `48.8566, 2.3522`, `48.8566 2.3522`, `48.8566;2.3522`, or
 * in degrees, minutes and seconds with their hemispheres,
 * `48°51′24″N 2°21′08″E` (either order; `'` and `"` for ′ and ″; S and W
 * negative). Null for anything else or a point off the globe. Rounded to
 * 6 decimals (about 10 cm), more than any provider resolves.
 */
export function coordinatePairOf(text: string): { latitude: number; longitude: number } | null {
  const pair = decimalPair(text) ?? hemispherePair(text);
  if (!pair || Math.abs(pair.latitude) > 90 || Math.abs(pair.longitude) > 180) return null;
  return { latitude: rounded(pair.latitude), longitude: rounded(pair.longitude) };
}

const signedDecimal = String.raw`[+\-−]?\d+(?:\.\d+)?`;
const decimalPairShape = new RegExp(String.raw`^\s*(${signedDecimal})\s*(?:[,;]\s*|\s+)(${signedDecimal})\s*$`);

function decimalPair(text: string): { latitude: number; longitude: number } | null {
  const match = decimalPairShape.exec(text);
  return match ? { latitude: decimal(match[1]!), longitude: decimal(match[2]!) } : null;
}

/** One coordinate: degrees, then optional minutes and seconds, then its hemisphere letter. */
const hemisphereShape = /(\d+(?:\.\d+)?)\s*°\s*(?:(\d+(?:\.\d+)?)\s*['′]\s*)?(?:(\d+(?:\.\d+)?)\s*(?:["″]|'')\s*)?([NSEW])/gi;

function hemispherePair(text: string): { latitude: number; longitude: number } | null {
  const parts = [...text.matchAll(hemisphereShape)];
  const rest = text.replace(hemisphereShape, "").replace(/[\s,;]/g, "");
  if (parts.length !== 2 || rest !== "") return null;
  const values = parts.map(([, degrees, minutes, seconds, hemisphere]) => {
    const magnitude = Number(degrees) + Number(minutes ?? 0) / 60 + Number(seconds ?? 0) / 3600;
    const letter = hemisphere!.toUpperCase();
    return { axis: letter === "N" || letter === "S" ? "latitude" : "longitude", value: letter === "S" || letter === "W" ? -magnitude : magnitude };
  });
  const latitude = values.find((value) => value.axis === "latitude");
  const longitude = values.find((value) => value.axis === "longitude");
  return latitude && longitude ? { latitude: latitude.value, longitude: longitude.value } : null;
}

function decimal(text: string): number {
  return Number(text.replace("−", "-"));
}

function rounded(value: number): number {
  return Math.round(value * 1e6) / 1e6 || 0;
}
