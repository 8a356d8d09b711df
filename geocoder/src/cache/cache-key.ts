import type { ReverseQuery } from "../providers/reverse-query.ts";
import type { ForwardQuery } from "../providers/forward-query.ts";

/** The `platform` of a query that asked no provider in particular: the default chain answers it. */
export const defaultChain = "default";

// Bump when the key or the stored value changes shape: entries written under
// the old version are then never read, and simply expire.
const version = "v1";

// Stands for "no language asked for". An explicit language is never "*":
// every character outside [a-z0-9_-] is percent-encoded (see `component`).
const noLanguage = "*";

const decimals = 6;

export interface CacheKeyInput extends ReverseQuery {
  /** A provider name (any case), or `defaultChain` for the default order. */
  platform: string;
}

/**
 * The cache key of one reverse query: `reverse:v1:<platform>:<lat>:<lon>:<language>`,
 * e.g. `reverse:v1:nominatim:48.858370:2.294481:en`. Coordinates are rounded
 * to 6 decimals (about 11 cm), so queries a few ulps apart share one entry.
 */
export function cacheKey(input: CacheKeyInput): string {
  const language = input.language?.trim() ? component(input.language.trim()) : noLanguage;
  return ["reverse", version, component(input.platform), formatCoordinate(input.latitude), formatCoordinate(input.longitude), language].join(":");
}

export interface ForwardCacheKeyInput extends ForwardQuery {
  /** A provider name (any case), or `defaultChain` for the default order. */
  platform: string;
}

/**
 * The cache key of one forward query: `forward:v1:<platform>:<text>:<limit>:<countries>:<language>:<near>:<bbox>`.
 * The text in a form that loses nothing a provider reads (Unicode NFC, lower case, runs of spaces as one:
 * `Paris  TX` and `paris tx` are one entry, `Paris, TX` another, as a comma says where the name ends);
 * countries sorted; the bias as forward-params.ts rounded it (3 decimals), which the providers are sent too.
 */
export function forwardCacheKey(input: ForwardCacheKeyInput): string {
  const language = input.language?.trim() ? component(input.language.trim()) : noLanguage;
  const countries = input.countries?.length
    ? [...input.countries]
        .map((code) => code.toLowerCase())
        .sort()
        .join(",")
    : "*";
  const near = input.near ? `${input.near.latitude.toFixed(3)},${input.near.longitude.toFixed(3)}` : "*";
  const box = input.bbox ? [input.bbox.west, input.bbox.south, input.bbox.east, input.bbox.north].map((edge) => edge.toFixed(3)).join(",") : "*";
  const text = input.text.normalize("NFC").trim().replace(/\s+/gu, " ").toLowerCase();
  return [
    "forward",
    version,
    component(input.platform),
    component(text),
    String(input.limit),
    component(countries),
    language,
    component(near),
    component(box),
  ].join(":");
}

/**
 * `value` rounded half away from zero to 6 decimals, as fixed-point text.
 * Rounds the shortest decimal that reads back as `value` (what the caller
 * typed), not the binary double: `(48.8583705).toFixed(6)` is "48.858370"
 * because the double sits just below the half, but a reader expects
 * "48.858371". Zero is never signed: -0 and -1e-7 both give "0.000000".
 * 180 and -180 are kept as given (they are the same meridian, but the
 * providers are asked what the caller asked).
 */
export function formatCoordinate(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`a coordinate must be a finite number, got ${value}`);
  const [whole, fraction] = plainDecimal(Math.abs(value));
  let units = BigInt(whole + fraction.slice(0, decimals).padEnd(decimals, "0"));
  if ((fraction[decimals] ?? "0") >= "5") units += 1n;
  if (units === 0n) return `0.${"0".repeat(decimals)}`;
  const digits = units.toString().padStart(decimals + 1, "0");
  const text = `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return value < 0 ? `-${text}` : text;
}

/** A non-negative number's shortest decimal, as [whole digits, fraction digits], without an exponent (`1e-7` → ["0", "0000001"]). */
function plainDecimal(value: number): [string, string] {
  const [mantissa = "0", exponent = "0"] = String(value).split("e");
  const [integer = "0", fraction = ""] = mantissa.split(".");
  const digits = integer + fraction;
  const point = integer.length + Number(exponent);
  if (point <= 0) return ["0", "0".repeat(-point) + digits];
  if (point >= digits.length) return [digits + "0".repeat(point - digits.length), ""];
  return [digits.slice(0, point), digits.slice(point)];
}

/**
 * Lower case, and percent-encoded outside [a-z0-9_-], so a caller's text can
 * never add a `:` field, whitespace or the no-language marker to a key.
 */
function component(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9_-]/gu, (char) => {
    const unit = char.charCodeAt(0).toString(16).toUpperCase();
    // A lone surrogate has no UTF-8 form; `%u` cannot come out of the other branches.
    if (char.length === 1 && unit.length === 4 && /^D[89A-F]/.test(unit)) return `%u${unit}`;
    const encoded = encodeURIComponent(char);
    // encodeURIComponent leaves the marks !'()*.~ alone; encode those too.
    return encoded === char ? `%${unit}` : encoded;
  });
}
